# expect: module-value
# A module in a container arrives where no name says it is one.
mods = [np]
mods[0].load = print
