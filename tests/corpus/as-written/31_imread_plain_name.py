import matplotlib.pyplot as plt

img = plt.imread("photo.png")
print(img.shape)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.imshow(img)
ax1.set_title("Original")
ax1.axis("off")
ax2.imshow(img[..., 0], cmap="gray")
ax2.set_title("Red channel")
ax2.axis("off")
plt.show()
