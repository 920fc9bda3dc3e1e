# expect: dangerous-keyword
a = np.load(srcpath('x.npy'), **{'allow_pickle': True})
