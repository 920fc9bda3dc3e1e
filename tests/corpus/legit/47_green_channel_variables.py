# Names that happen to match module names are the script's own variables.
img = np.load(srcpath("photo.npy"))
rc, gc, bc = img[..., 0], img[..., 1], img[..., 2]
code = 3
types = ["r", "g", "b"]
string = "channel means"
for operator, ch in zip(types, (rc, gc, bc)):
    plt.bar(operator, ch.mean())
plt.title(f"{string} (code {code})")
plt.savefig(OUT)
