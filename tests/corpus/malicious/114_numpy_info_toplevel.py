# expect: dangerous-keyword
# np.info(obj, toplevel=NAME) imports the module NAME.
np.info(np.sum, toplevel="ctypes")
