# expect: import-not-allowed, blocked-attribute
# In a class body the module would become an attribute the name rules cannot follow.
class A:
    import os
A.os.listdir('/')
