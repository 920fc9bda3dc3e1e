# expect: blocked-attribute, module-assignment
# Point PIL's Ghostscript at a shell, then open an EPS file from the data folder.
import PIL
from PIL import Image
PIL.EpsImagePlugin.gs_binary = '/bin/sh'
Image.open(srcpath('x.eps')).load()
