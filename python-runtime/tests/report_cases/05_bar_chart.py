# expect: none
regions = ["north", "south", "east", "west"]
revenue = [12.5, 9.1, 14.2, 7.8]
fig, ax = plt.subplots()
ax.bar(regions, revenue, color="tab:green")
ax.set_ylabel("revenue (kEUR)")
ax.set_title("Revenue by region")
plt.savefig(OUT)
