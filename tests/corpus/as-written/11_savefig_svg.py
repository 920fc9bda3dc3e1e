import matplotlib.pyplot as plt

labels = ["A", "B", "C", "D"]
sizes = [15, 30, 45, 10]
fig, ax = plt.subplots()
ax.pie(sizes, labels=labels, autopct="%1.1f%%", startangle=90)
ax.axis("equal")
plt.title("Share by category")
plt.savefig("chart.svg")
