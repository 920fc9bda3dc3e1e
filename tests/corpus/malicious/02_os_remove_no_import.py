# expect: blocked-name
# os was pre-imported by the old wrapper
os.remove(srcpath("data.csv"))
