# expect: encoding
# -*- coding: utf-7 -*-
x = '+AG8-'
