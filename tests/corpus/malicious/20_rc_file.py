# expect: dangerous-api
import matplotlib
matplotlib.rc_file(srcpath('evil.rc'))
