# expect: dangerous-api
from matplotlib.animation import FFMpegWriter
w = FFMpegWriter(fps=10)
