# expect: module-assignment
# The class of a library object, reached with type(x).
fig = plt.figure()
type(fig).savefig = print
