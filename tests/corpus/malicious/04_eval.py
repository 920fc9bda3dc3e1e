# expect: forbidden-builtin
eval("__imp" + "ort__('os').system('id')")
