# expect: list of 3
# expect: list of 2
plt.bar(['a', 'b', 'c'], [1, 2])
plt.savefig(OUT)
