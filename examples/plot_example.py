# An ordinary figure script, as a model would write it for PDFAgent: it reads the example
# data folder through the injected helpers and saves one figure to OUT.
#
#   pdfagent make-figure --src examples/data --name overview \
#       --code examples/plot_example.py --figures figures
import pandas as pd

sweep = loadmat(srcpath("field_sweep.mat"))
bands = pd.read_csv(srcpath("bands.csv"))
spectrum = np.load(srcpath("spectrum.npy"))
meta = pd.read_json(srcpath("meta.json"), typ="series")

fig, axes = plt.subplots(2, 2, figsize=(9, 7))

ax = axes[0, 0]
field = sweep["B_T"].ravel()
for temp, r_xx in zip(sweep["T_K"].ravel(), sweep["Rxx_ohm"]):
    ax.plot(field, r_xx, label=f"{temp:g} K")
ax.set_xlabel("B (T)")
ax.set_ylabel("R$_{xx}$ ($\\Omega$)")
ax.set_title("Magnetoresistance")
ax.legend()

ax = axes[0, 1]
for column in bands.columns[1:]:
    ax.plot(bands["k"], bands[column], label=column.replace("_eV", ""))
ax.set_xlabel("k (1/a)")
ax.set_ylabel("E (eV)")
ax.set_title("Band structure")
ax.legend(fontsize="small")

ax = axes[1, 0]
ax.plot(spectrum[0], spectrum[1], color="tab:purple")
ax.set_xlabel("wavelength (nm)")
ax.set_ylabel("counts")
ax.set_title("Spectrum")

ax = axes[1, 1]
ax.axis("off")
lines = [f"{key}: {value}" for key, value in meta.items()]
lines.append(f"files: {', '.join(walkfiles())}")
ax.text(0.0, 1.0, "\n".join(lines), va="top", family="monospace", fontsize=9)
ax.set_title("Sample")

fig.suptitle(f"Sample {meta['sample']}")
fig.tight_layout()
plt.savefig(OUT, dpi=100)
