# expect: private-attribute
lib = np.core._multiarray_umath
