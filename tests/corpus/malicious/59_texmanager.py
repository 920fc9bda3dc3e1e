# expect: blocked-submodule
from matplotlib.texmanager import TexManager
TexManager().make_png("x", 12, 100)
