# expect: blocked-name, blocked-attribute
𝐨𝐬.system('id')
