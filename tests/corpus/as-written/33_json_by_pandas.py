import pandas as pd
import matplotlib.pyplot as plt

results = pd.read_json("results.json", typ="series")
temps = results["temperatures_K"]
gain = results["gain"]

plt.plot(temps, gain, "s-")
plt.xscale("log")
plt.xlabel("Temperature (K)")
plt.ylabel("Gain")
plt.title(f"Sample {results['sample']}")
plt.show()
