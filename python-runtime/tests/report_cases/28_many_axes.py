# expect: none
# 20 panels: the report lists 16 in detail and counts the rest; supxlabel/supylabel label them all.
fig, axes = plt.subplots(4, 5, figsize=(12, 9), layout="constrained")
x = np.linspace(0, 1, 40)
for k, ax in enumerate(axes.flat):
    ax.plot(x, np.sin((k + 1) * x))
    ax.set_title(f"mode {k + 1}", fontsize=9)
fig.supxlabel("position (m)")
fig.supylabel("displacement (mm)")
fig.suptitle("Vibration modes")
plt.savefig(OUT)
