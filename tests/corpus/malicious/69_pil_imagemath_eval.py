# expect: blocked-submodule, blocked-attribute
from PIL import ImageMath
ImageMath.unsafe_eval("__import__('os').system('id')")
