import math
import cmath
import statistics
from decimal import Decimal
from fractions import Fraction

z = [cmath.rect(1, k * math.pi / 8) for k in range(16)]
mags = [abs(w) for w in z]
phases = [cmath.phase(w) for w in z]
label = f"median {statistics.median(mags):.2f}, step {Fraction(1, 8)}π, {Decimal('0.1') * 3}"
plt.plot(phases, "o-")
plt.title(label)
plt.savefig(OUT)
