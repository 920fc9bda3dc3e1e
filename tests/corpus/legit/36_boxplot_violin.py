rng = np.random.default_rng(11)
groups = [rng.normal(m, s, 200) for m, s in [(0, 1), (1, 0.5), (2, 1.5)]]
fig, (a, b) = plt.subplots(1, 2, figsize=(9, 4), sharey=True)
a.boxplot(groups, labels=["A", "B", "C"], notch=True)
b.violinplot(groups, showmeans=True)
plt.savefig(OUT)
