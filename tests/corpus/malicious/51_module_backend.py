# expect: dangerous-rcparam
import matplotlib
matplotlib.use('module://pickle')
