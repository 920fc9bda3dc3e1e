# expect: forbidden-builtin
g = getattr
cls = g((), '__cl' + 'ass__')
