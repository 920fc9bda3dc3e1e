# PDFAgent selftest: run by the worker exactly like a figure script. The parent prepends
# MODULES (the policy's allowlist) and FIGURE, and reads the one line starting with MARKER.
import json
import sys
import time

MARKER = "PDFAGENT-SELFTEST "
started = time.perf_counter()


def ms(since):
    return round((time.perf_counter() - since) * 1000, 1)


def describe(exc):
    return f"{type(exc).__name__}: {exc}"


facts = {
    "version": sys.version.split()[0],
    "prefix": sys.prefix,
    "base_prefix": sys.base_prefix,
    "executable": sys.executable,
    "isolated": sys.flags.isolated,
    "ignore_environment": sys.flags.ignore_environment,
    "no_user_site": sys.flags.no_user_site,
    "safe_path": sys.flags.safe_path,
    "utf8_mode": sys.flags.utf8_mode,
    "filesystem_encoding": sys.getfilesystemencoding(),
    "path": list(sys.path),
}

imports = []
for name in MODULES:
    t = time.perf_counter()
    try:
        __import__(name)
        imports.append({"name": name, "ok": True, "error": "", "ms": ms(t)})
    except BaseException as exc:  # a broken extension module can raise anything
        imports.append({"name": name, "ok": False, "error": describe(exc), "ms": ms(t)})

t = time.perf_counter()
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    x = np.linspace(0, 2 * np.pi, 200)
    ax.plot(x, np.sin(x), label="sin")
    ax.plot(x, np.cos(x), label="cos")
    ax.set_title("PDFAgent selftest")
    ax.legend()
    fig.savefig(FIGURE)
    plt.close(fig)
    savefig = {"ok": True, "error": "", "ms": ms(t)}
except BaseException as exc:
    savefig = {"ok": False, "error": describe(exc), "ms": ms(t)}

report = globals().get("__pdfagent_confinement__", "null")
print(
    MARKER
    + json.dumps(
        {
            "facts": facts,
            "imports": imports,
            "savefig": savefig,
            "confinement": json.loads(report),
            "script_ms": ms(started),
        }
    ),
    flush=True,
)
