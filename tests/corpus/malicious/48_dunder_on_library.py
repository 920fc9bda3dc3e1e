# expect: private-attribute
d = plt.__dict__
