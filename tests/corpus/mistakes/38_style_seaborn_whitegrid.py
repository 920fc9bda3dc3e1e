# expect: seaborn-v0_8-whitegrid
plt.style.use('seaborn-whitegrid')
plt.plot([1, 2, 3])
plt.savefig(OUT)
