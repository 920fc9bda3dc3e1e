import seaborn as sns
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, name in zip(axes, ["tips", "iris"]):
    df = sns.load_dataset(name)
    numeric = df.select_dtypes("number")
    sns.histplot(data=numeric, x=numeric.columns[0], ax=ax)
    ax.set_title(f"{name}: {numeric.columns[0]}")
plt.tight_layout()
plt.savefig("datasets.png", dpi=150)
