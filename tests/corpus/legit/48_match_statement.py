def style_for(kind):
    match kind:
        case "line":
            return dict(ls="-")
        case "dash" | "dashed":
            return dict(ls="--")
        case {"ls": ls}:
            return dict(ls=ls)
        case _:
            return dict(ls=":")


for i, kind in enumerate(["line", "dash", "other"]):
    plt.plot(np.arange(5) + i, **style_for(kind))
plt.savefig(OUT)
