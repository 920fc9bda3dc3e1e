# expect: private-attribute
class A:
    def m(self):
        return self.__class__.__base__
