# expect: private-attribute
().__class__.__bases__[0].__subclasses__()
