# expect: blocked-attribute
np.f2py.compile('x', modulename='m')
