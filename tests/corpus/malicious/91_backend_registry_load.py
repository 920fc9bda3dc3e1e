# expect: blocked-attribute
# matplotlib's backend registry loads a module from a name built at run time.
import matplotlib.backends.registry as reg
name = 'module:' + '//os'
reg.backend_registry.load_backend_module(name)
