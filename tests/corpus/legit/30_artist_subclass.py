import matplotlib.lines as mlines
import matplotlib.text as mtext


class LabeledLine(mlines.Line2D):
    """A line with a text label that follows it."""

    def __init__(self, *args, label_text="", **kwargs):
        self._text = mtext.Text(0, 0, label_text, fontsize=9)
        super().__init__(*args, **kwargs)
        self._offset = 0.02

    def set_figure(self, figure):
        self._text.set_figure(figure)
        super().set_figure(figure)

    def set_axes(self, axes):
        self._text.set_transform(axes.transData)
        super().set_axes(axes)

    def set_data(self, x, y):
        if len(x):
            self._text.set_position((x[-1], y[-1] + self._offset))
        super().set_data(x, y)

    def draw(self, renderer):
        super().draw(renderer)
        self._text.draw(renderer)


fig, ax = plt.subplots()
x = np.linspace(0, 1, 50)
line = LabeledLine(x, x**2, label_text="quadratic", color="C3")
ax.add_line(line)
ax.set_xlim(0, 1.2)
ax.set_ylim(0, 1.2)
plt.savefig(OUT)
