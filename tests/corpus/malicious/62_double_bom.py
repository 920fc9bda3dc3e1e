﻿# expect: encoding
# found by cargo fuzz: a second BOM was kept, then dropped on re-check
x = 1
