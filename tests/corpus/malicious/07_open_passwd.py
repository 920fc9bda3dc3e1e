# expect: forbidden-builtin
print(open('/etc/passwd').read())
