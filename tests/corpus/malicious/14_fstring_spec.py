# expect: format-string
x = 1
s = f"{x:{'{0.__class__}'}}"
