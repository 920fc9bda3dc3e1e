import matplotlib.scale as mscale
import matplotlib.transforms as mtransforms
from matplotlib.ticker import FixedLocator


class SquareRootScale(mscale.ScaleBase):
    name = "squareroot"

    def __init__(self, axis, **kwargs):
        super().__init__(axis)

    def set_default_locators_and_formatters(self, axis):
        axis.set_major_locator(FixedLocator(np.arange(0, 10) ** 2))

    def limit_range_for_scale(self, vmin, vmax, minpos):
        return max(0.0, vmin), vmax

    class SquareRootTransform(mtransforms.Transform):
        input_dims = output_dims = 1
        is_separable = True

        def transform_non_affine(self, a):
            return np.sqrt(np.clip(a, 0, None))

        def inverted(self):
            return SquareRootScale.InvertedSquareRootTransform()

    class InvertedSquareRootTransform(mtransforms.Transform):
        input_dims = output_dims = 1
        is_separable = True

        def transform_non_affine(self, a):
            return np.asarray(a) ** 2

        def inverted(self):
            return SquareRootScale.SquareRootTransform()

    def get_transform(self):
        return self.SquareRootTransform()


mscale.register_scale(SquareRootScale)
x = np.linspace(0, 80, 100)
plt.plot(x, x)
plt.yscale("squareroot")
plt.savefig(OUT)
