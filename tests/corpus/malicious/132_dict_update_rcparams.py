# expect: dangerous-api
# dict.update on rcParams skips its validation (issue 40).
dict.update(plt.rcParams, {'lines.linewidth': 'not a number'})
