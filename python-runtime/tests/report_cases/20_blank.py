# expect: blank
data = np.arange(10)
fig = plt.figure()
# forgot to plot
plt.savefig(OUT)
