# expect: blocked-attribute, private-attribute
subs = int.mro()[-1].__subclasses__()
