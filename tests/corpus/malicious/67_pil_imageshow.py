# expect: blocked-submodule
# ImageShow starts a viewer program.
from PIL import ImageShow
ImageShow.show(plt.imread(srcpath('a.png')))
