import pandas as pd
import matplotlib.pyplot as plt

df = pd.read_csv("measurements.csv", parse_dates=["date"])

fig, ax1 = plt.subplots(figsize=(10, 5))
ax1.plot(df["date"], df["temperature"], color="tab:red")
ax1.set_ylabel("Temperature (°C)", color="tab:red")
ax2 = ax1.twinx()
ax2.plot(df["date"], df["humidity"], color="tab:blue")
ax2.set_ylabel("Humidity (%)", color="tab:blue")
ax1.set_xlabel("Date")
fig.autofmt_xdate()
plt.title("Temperature and humidity")
plt.show()
