# expect: listdir()
import os

files = [f for f in os.listdir('.') if f.endswith('.csv')]
print(files)
plt.plot([1, 2])
plt.savefig(OUT)
