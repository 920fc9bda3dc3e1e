# expect-ok
# expect: 'field_sweep.mat'
m = loadmat('/content/drive/MyDrive/field_sweep.mat')
print(sorted(m))
plt.plot([0, 1])
plt.savefig(OUT)
