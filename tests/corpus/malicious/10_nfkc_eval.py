# expect: forbidden-builtin
ｅｖａｌ('1 + 1')
