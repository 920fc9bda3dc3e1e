import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

df = pd.read_csv("iris.csv")
fig, axs = plt.subplot_mosaic([["hist", "scatter"], ["box", "scatter"]], figsize=(10, 7), layout="constrained")
axs["hist"].hist(df["sepal_length"], bins=15)
axs["hist"].set_title("Sepal length")
axs["hist"].set_xlabel("cm")
axs["hist"].set_ylabel("count")
for species, group in df.groupby("species"):
    axs["scatter"].scatter(group["sepal_width"], group["petal_width"], label=species)
axs["scatter"].legend()
axs["scatter"].set_xlabel("sepal width")
axs["scatter"].set_ylabel("petal width")
axs["box"].boxplot([g["petal_length"].values for _, g in df.groupby("species")], tick_labels=sorted(df["species"].unique()))
axs["box"].set_ylabel("petal length")
fig.savefig("iris_overview.png", dpi=200)
