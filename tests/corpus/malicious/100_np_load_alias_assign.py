# expect: module-assignment
# The same through an alias.
m = np
m.load = print
m.lib.format.read_array = print
