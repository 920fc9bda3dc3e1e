from matplotlib.axes import Axes
from matplotlib.projections import register_projection
import matplotlib.transforms as mtransforms
import matplotlib.spines as mspines
from matplotlib.patches import Circle


class HammerishAxes(Axes):
    name = "hammerish"

    def __init__(self, *args, **kwargs):
        self._longitude_cap = np.pi / 2.0
        super().__init__(*args, **kwargs)
        self.set_aspect(0.5, adjustable="box", anchor="C")
        self.clear()

    def _gen_axes_patch(self):
        return Circle((0.5, 0.5), 0.5)

    def _gen_axes_spines(self):
        return {"geo": mspines.Spine.circular_spine(self, (0.5, 0.5), 0.5)}

    def set_longitude_cap(self, degrees):
        self._longitude_cap = np.deg2rad(degrees)

    def format_coord(self, lon, lat):
        return f"{np.rad2deg(lon):.1f}, {np.rad2deg(lat):.1f} (cap {self._longitude_cap:.2f})"


register_projection(HammerishAxes)
fig = plt.figure()
ax = fig.add_subplot(projection="hammerish")
ax.plot([0, 1], [0, 1])
plt.savefig(OUT)
