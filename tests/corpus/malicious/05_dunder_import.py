# expect: forbidden-builtin, blocked-attribute
__import__('os').system('id')
