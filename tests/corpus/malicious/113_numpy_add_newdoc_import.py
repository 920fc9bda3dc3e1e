# expect: blocked-attribute
# np.lib.add_newdoc imports the module its first argument names.
np.lib.add_newdoc("ctypes", "CDLL", "doc")
