# expect: blocked-attribute
libc = np.ctypeslib.ctypes.CDLL(None)
libc.system(b'id')
