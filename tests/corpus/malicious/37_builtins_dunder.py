# expect: dunder-name
b = __builtins__
b['ev' + 'al']('1')
