import numpy as np
import matplotlib.pyplot as plt

# Create some sample data
x = np.linspace(0, 2 * np.pi, 200)
y = np.sin(x)

# Plot
plt.figure(figsize=(8, 5))
plt.plot(x, y, label="sin(x)", color="tab:blue", linewidth=2)
plt.xlabel("x")
plt.ylabel("sin(x)")
plt.title("Sine Wave")
plt.legend()
plt.grid(True, alpha=0.3)
plt.tight_layout()
plt.show()
