"""Run inside the staged runtime: prebuild matplotlib's font cache from mpl-data's fonts only.

matplotlib stores fonts under its mpl-data relative to mpl.get_data_path(), so they stay valid
when the runtime moves; host fonts would be stored absolute and rebuild the cache on another
machine (findfont checks os.path.isfile), so the cache holds only mpl-data's."""

import json
import os
import pathlib

import matplotlib
import matplotlib.font_manager as fm

scan = fm.findSystemFonts
fm.findSystemFonts = lambda fontpaths=None, fontext="ttf": scan(fontpaths, fontext) if fontpaths else []
mgr = fm.FontManager()
path = pathlib.Path(matplotlib.get_cachedir(), f"fontlist-v{fm.FontManager.__version__}.json")
fm.json_dump(mgr, path)
data = json.loads(path.read_text(encoding="utf-8"))
bad = [e["fname"] for e in data["ttflist"] + data["afmlist"] if os.path.isabs(e["fname"])]
assert not bad, f"absolute font paths in the cache: {bad[:3]}"
print(path.name)
