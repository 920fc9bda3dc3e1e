# expect: walkfiles()
import glob
import pandas as pd

for path in glob.glob('runs/*/trace.csv'):
    df = pd.read_csv(path)
    plt.plot(df['t'], df['v'])
plt.savefig(OUT)
