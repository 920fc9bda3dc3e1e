# expect: star-import
# A star import the checker cannot expand: inside a function (only a module-level star
# import of an allowed module binds its known names).
def helpers():
    from numpy import *
