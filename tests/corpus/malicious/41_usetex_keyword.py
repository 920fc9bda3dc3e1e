# expect: dangerous-keyword
plt.text(0.5, 0.5, r'$x$', usetex=True)
