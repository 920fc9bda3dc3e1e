# expect: dangerous-api
# matplotlib.use with a backend name computed at run time.
import matplotlib
name = 'module:' + '//os'
matplotlib.use(name)
