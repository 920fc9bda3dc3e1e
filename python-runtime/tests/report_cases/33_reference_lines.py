# expect: none
# Reference lines and spans mark values across the axes: reported as such, never counted
# among the data lines.
t = np.linspace(0, 10, 201)
fig, ax = plt.subplots()
ax.plot(t, np.sin(t), label="sin")
ax.plot(t, 0.5 * np.cos(t), label="half cos")
ax.axhline(0.25, color="k", ls="--", label="threshold")
ax.axvline(5, color="grey")
ax.axline((0, -1), slope=0.2, color="r")
ax.axhspan(-0.2, 0.2, alpha=0.1)
ax.axvspan(2, 3, alpha=0.1)
ax.set_xlabel("time (s)")
ax.set_ylabel("signal (V)")
ax.legend()
plt.savefig(OUT)
