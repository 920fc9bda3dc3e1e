# expect-ok
# expect: 'photo.png'
img = plt.imread('/mnt/user-data/photo.png')
plt.imshow(img)
plt.savefig(OUT)
