# A photograph from the data folder through PIL, as matplotlib's image gallery reads one.
from PIL import Image

with Image.open(srcpath("photo.png")) as im:
    pixels = np.asarray(im.convert("L"))
fig, ax = plt.subplots()
shown = ax.imshow(pixels, cmap="gray")
fig.colorbar(shown, ax=ax, label="brightness")
ax.set_xlabel("x (px)")
ax.set_ylabel("y (px)")
ax.set_title(f"photo.png, {im.size[0]}×{im.size[1]} px")
plt.savefig(OUT)
