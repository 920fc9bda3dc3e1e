# expect: 'intensity'
scans = load('scans.npz')
plt.imshow(scans['image'])
plt.savefig(OUT)
