# expect: forbidden-builtin
run = exec
run('print(1)')
