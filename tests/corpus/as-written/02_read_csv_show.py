import pandas as pd
import matplotlib.pyplot as plt

# Load the data
df = pd.read_csv("data.csv")
print(df.head())

fig, ax = plt.subplots(figsize=(10, 6))
ax.plot(df["x"], df["y"], marker="o", markersize=3, linestyle="-")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.set_title("Data from data.csv")
plt.show()
