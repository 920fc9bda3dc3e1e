# expect: foreign-module
# `from PIL.Image import core` binds PIL._imaging (grabscreen_x11); issue 40.
from PIL.Image import core
core.grabscreen_x11(0, 0)
