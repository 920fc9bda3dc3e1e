# expect: 'sample'
meta = load('meta.json')
for key in ['Sample', 'operator']:
    print(meta[key])
plt.plot([1, 2, 3])
plt.savefig(OUT)
