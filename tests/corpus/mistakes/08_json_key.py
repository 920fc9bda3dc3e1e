# expect: 'thickness_nm'
meta = load('meta.json')
x = np.linspace(0, meta['thickness'], 50)
plt.plot(x, np.sin(x))
plt.savefig(OUT)
