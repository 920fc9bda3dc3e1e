# expect: module-assignment
# Every target form: for, with, augmented, delete, tuple.
for np.lib.format.read_array in [print]:
    pass
np.pi += 1
del plt.savefig
a, plt.show = 1, print
