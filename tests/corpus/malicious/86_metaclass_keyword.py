# expect: class-construction
# A metaclass keyword hands class creation to any callable.
class F(metaclass=print):
    pass
