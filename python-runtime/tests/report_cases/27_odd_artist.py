# expect: none
# An artist whose data cannot be read must not break the report.
import matplotlib.lines as mlines


class Stubborn(mlines.Line2D):
    def get_xydata(self):
        raise RuntimeError("no data for you")


x = np.linspace(0, 1, 30)
fig, ax = plt.subplots()
ax.plot(x, x)
ax.add_line(Stubborn([0, 1], [1, 0], color="red"))
ax.set_xlabel("x")
ax.set_ylabel("y")
plt.savefig(OUT)
