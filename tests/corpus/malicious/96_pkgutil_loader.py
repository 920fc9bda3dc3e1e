# expect: blocked-attribute
# A loader reached through pkgutil-like helpers on any object.
loader = plt.cbook.get_loader('os')
mod = loader.load_module('os')
