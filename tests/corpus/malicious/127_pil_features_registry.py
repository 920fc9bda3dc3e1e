# expect: foreign-module
# PIL.features' tables map names to modules; with Layer 1 bypassed harden.py keeps them
# read-only. Written here through the module value the checker refuses (issue 40).
from PIL import features
import PIL.Image
c = PIL.Image.core.grabscreen_x11
