# expect: module-assignment
# An alias made with the walrus operator.
if (m := np) is not None:
    m.load = print
