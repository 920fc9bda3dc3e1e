# expect: dangerous-api
np.lookfor("x", module="pickle")
