import matplotlib
from matplotlib.backends.backend_pdf import PdfPages

matplotlib.rcParams["font.size"] = 9
plt.style.use("ggplot")
with PdfPages(OUT) as pdf:
    for k in range(3):
        fig = plt.figure()
        plt.plot(np.arange(10) ** (k + 1))
        pdf.savefig(fig)
        plt.close(fig)
