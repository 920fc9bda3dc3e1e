# expect: forbidden-builtin
import functools
run = functools.partial(eval, "__import__('os').system('id')")
run()
