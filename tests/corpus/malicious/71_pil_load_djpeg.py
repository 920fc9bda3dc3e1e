# expect: blocked-attribute
from PIL import Image
im = Image.open(srcpath('a.jpg'))
im.load_djpeg()
