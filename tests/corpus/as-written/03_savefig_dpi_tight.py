import pandas as pd
import matplotlib.pyplot as plt

df = pd.read_csv('data.csv')

plt.figure(figsize=(8, 6))
plt.scatter(df['x'], df['y'], c=df['y'], cmap='viridis', s=20)
plt.colorbar(label='y value')
plt.xlabel('x')
plt.ylabel('y')
plt.title('Scatter of y against x')
plt.savefig('figure.png', dpi=300, bbox_inches='tight')
print("Saved figure.png")
