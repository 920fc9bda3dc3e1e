# expect: dangerous-api
# The same through another import name and an alias.
import matplotlib as m2
u = m2
u.use(''.join(['module:', '//os']))
