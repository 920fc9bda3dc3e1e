# expect: format-string
x = 1
print('{0.__class__.__base__}'.format(x))
