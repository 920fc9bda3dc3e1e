"""Compare two reachability snapshots across a move of the worker's functions (issue 44).

    python3 python-runtime/tests/reach/moves.py BEFORE.tsv AFTER.tsv

A worker function's qualified name (`__main__._pdfagent_harden.<locals>.pin_load.<locals>.load`)
changes when it moves; what it reaches must not. Every worker name in both snapshots is
reduced to its final component (`load`), in the name column and in every evidence chain;
then the rows are compared as they stand (kind, capabilities, disposition, the path code
writes, the evidence). Prints the table of moved names (old -> new, matched by final name,
kind, capabilities and path) and every row that differs once names are reduced; exits 1
when any row differs, so a move that changes what a function reaches cannot pass as one.
"""

import re
import sys
from collections import Counter

WORKER_NAME = re.compile(r"(?:__main__\.)?_pdfagent_[A-Za-z0-9_]*(?:\.<locals>\.[A-Za-z0-9_]+)*")


def final(name):
    return name.rsplit(".", 1)[-1] if "<locals>" in name else name


def reduce(text):
    return WORKER_NAME.sub(lambda m: final(m.group(0).removeprefix("__main__.")), text)


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]


def moved(before, after):
    """(old name, new name, caps) of the flagged rows whose worker name changed."""

    def keyed(lines):
        out = {}
        for line in lines:
            cols = line.split("\t")
            if len(cols) >= 5 and WORKER_NAME.fullmatch(cols[0]):
                out.setdefault((final(cols[0]), cols[1], cols[2], cols[4]), cols[0])
        return out

    old, new = keyed(before), keyed(after)
    table = [(old[k], new.get(k, "(gone)"), k[2]) for k in sorted(old) if old[k] != new.get(k)]
    table += [("(new)", new[k], k[2]) for k in sorted(new) if k not in old]
    return table


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = rows(sys.argv[1]), rows(sys.argv[2])
    print("| old name | new name | capabilities |")
    print("| --- | --- | --- |")
    for old, new, caps in moved(before, after):
        print(f"| `{old}` | `{new}` | {caps} |")
    gone = Counter(map(reduce, before)) - Counter(map(reduce, after))
    came = Counter(map(reduce, after)) - Counter(map(reduce, before))
    print(f"\nrows compared: {len(before)} before, {len(after)} after; "
          f"rows that differ once worker names are reduced to their final part: "
          f"{sum(gone.values())} before only, {sum(came.values())} after only")
    for line in sorted(gone.elements()):
        print(f"- {line}")
    for line in sorted(came.elements()):
        print(f"+ {line}")
    sys.exit(1 if gone or came else 0)


if __name__ == "__main__":
    main()
