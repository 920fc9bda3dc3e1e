# expect: blocked-attribute
# Point PIL's Ghostscript at a shell, then open an EPS file from the data folder.
import PIL
from PIL import Image
PIL.EpsImagePlugin.gs_binary = '/bin/sh'
Image.open(srcpath('x.eps')).load()
