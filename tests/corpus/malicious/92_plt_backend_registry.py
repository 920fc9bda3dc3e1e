# expect: blocked-attribute
# The same registry re-exported by pyplot, and its other loader.
plt.backend_registry.resolve_gui_or_backend('module:' + '//os')
plt.switch_backend('module:' + '//os')
