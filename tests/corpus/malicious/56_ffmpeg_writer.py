# expect: blocked-submodule
from matplotlib.animation import FFMpegWriter
w = FFMpegWriter(fps=10)
