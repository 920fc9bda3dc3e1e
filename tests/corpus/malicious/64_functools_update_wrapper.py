# expect: dangerous-api, class-construction
# update_wrapper reads and writes attributes named by a computed string: __globals__.
import functools
k = '_' * 2 + 'globals' + '_' * 2
D = {}
W = type('W', (), {k: D})
functools.update_wrapper(W(), np.load, assigned=(), updated=(k,))
D['os'].remove(OUT)
