# expect-ok
# expect: 'meta.json'
meta = load('./data/meta.json')
plt.title(meta['sample'])
plt.plot([1, 2, 3])
plt.savefig(OUT)
