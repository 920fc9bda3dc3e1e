# expect: dangerous-rcparam
import matplotlib as mpl
mpl.rcParams['animation.ffmpeg_path'] = '/bin/sh'
