"""The Layer-1 capability review, executable (issue 28, item 6): scripts/audit-reach.

Runs walker.py inside the real worker (the built `pdfagent`, its bundled runtime and the
preamble; Layer 1 bypassed through the hidden `internal-prepare-run`, Layer 2 confining it),
which lists every callable reachable from the allowlist with what it can do. Then, for each
callable that can import, evaluate, touch files, start processes, open sockets or change the
system (a "flagged" callable), it decides the disposition:

  refused-by-layer1        `pdfagent check` refuses every way the walker found to write it
                           (each path as `x = a.b.c`, and `x = obj.name` when any instance
                           holds it): computed here, never written by hand;
  neutralised-by-preamble  what code reaches is the worker's own replacement (its code is
                           the worker script's): computed here too;
  <a review row>           python-runtime/reach-review.toml says why it is acceptable
                           (`confined-by-layer2`; `neutralised-by-preamble`;
                           `not-a-capability` for a false alarm of the scan, e.g. a C name
                           with `remove` in it) — for what the checker accepts. A row names
                           the callable or the "sink" it reaches the capability through.

A second detector (issue 40) lists every mutable container a module or class holds under a
public name whose values name modules or callables (a registry a library imports or calls
from by name): refused-by-layer1, read-only (frozen by harden.py), or reviewed by a
[[registry]] row of reach-review.toml.

The result is the committed snapshot python-runtime/tests/snapshots/reachability.tsv. Without
--update the run fails when the snapshot differs (a new library version or a newly allowed
module shows its new ways in as a diff) or when a flagged callable has no disposition.

    scripts/audit-reach [--update] [--exe target/release/pdfagent] [--keep DIR]
"""

import argparse
import difflib
import fnmatch
import json
import keyword
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
POLICY = ROOT / "python-runtime" / "allowlist.toml"
REVIEW = ROOT / "python-runtime" / "reach-review.toml"
SNAPSHOT = ROOT / "python-runtime" / "tests" / "snapshots" / "reachability.tsv"
DISPOSITIONS = ("refused-by-layer1", "neutralised-by-preamble", "confined-by-layer2",
                "not-a-capability")
HOW_TO_REVIEW = (
    "Review it: run `scripts/audit-reach --update`, read the diff of "
    "python-runtime/tests/snapshots/reachability.tsv, and for every flagged callable the "
    "checker accepts add a [[reach]] row to python-runtime/reach-review.toml for the callable "
    "or for the sink named (name or glob, caps, disposition, reason) — or make Layer 1 refuse "
    "it, or the preamble replace it."
)


class AuditError(Exception):
    pass


def allowlisted_modules():
    with POLICY.open("rb") as f:
        return [m["name"] for m in tomllib.load(f)["module"]]


def reviewed_private_names():
    with POLICY.open("rb") as f:
        return [r["name"] for r in tomllib.load(f).get("reviewed_private", [])]


# The preamble's line that arms the run-time guard (python-runtime/worker/guard.py): the
# walker reads what Layer 1 lets code reach, so it runs with the guard unarmed (the guard
# would refuse its introspection), as the Layer 2 suites do (tests/tests/security_support).
GUARD_ARM_LINE = "guard_refusals = arm_guard(namespace, run_dir, compiled)"


def disarm_guard(script):
    text = script.read_text()
    if text.count(GUARD_ARM_LINE) != 1:
        raise AuditError(f"the worker script does not arm the guard with `{GUARD_ARM_LINE}`")
    script.write_text(text.replace(GUARD_ARM_LINE, "guard_refusals = []"))


def run_walker(exe, modules, keep):
    """Run walker.py as figure code in the real worker; return its JSON document."""
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="pdfagent-reach-"))
    src, run = work / "src", work / "run"
    src.mkdir(parents=True, exist_ok=True)
    run.mkdir(parents=True, exist_ok=True)
    code = work / "walker.py"
    code.write_text(f"REACH_MODULES = {modules!r}\n"
                    f"REACH_PRIVATE_NAMES = {reviewed_private_names()!r}\n"
                    + (HERE / "walker.py").read_text())
    prep = subprocess.run(
        [exe, "internal-prepare-run", "--src", src, "--run-dir", run, "--code", code,
         "--timeout", "600", "--memory", "4096"],
        capture_output=True, text=True, check=False)
    if prep.returncode != 0:
        raise AuditError(f"internal-prepare-run failed: {prep.stderr.strip()}")
    prepared = json.loads(prep.stdout)
    disarm_guard(Path(prepared["env"]["PDFAGENT_PYRUN"]))
    started = time.monotonic()
    worker = subprocess.run([exe], env=prepared["env"], cwd=prepared["run_dir"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            check=False, timeout=900)
    elapsed = time.monotonic() - started
    out = worker.stdout
    begin, end = out.find("PDFAGENT-REACH-BEGIN\n"), out.find("\nPDFAGENT-REACH-END")
    if begin < 0 or end < 0:
        raise AuditError(
            f"the walker printed no result (exit {worker.returncode}); its stderr ends:\n"
            + worker.stderr[-4000:])
    doc = json.loads(out[begin + len("PDFAGENT-REACH-BEGIN\n"):end])
    doc["elapsed_s"] = elapsed
    if not keep:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    return doc


def writable(path):
    """Whether code can write this dotted path as plain attribute syntax."""
    return all(p.isidentifier() and not keyword.iskeyword(p) for p in path.split("."))


def checker_routes(rows):
    """The expressions to check for each row: [(row index, expression, what)].

    A callable found on a class or an instance is also reached as `obj.name` by code holding
    an instance: that route is tested too, and counts when code can write the class or
    instance it was found on (its owner path is accepted)."""
    routes = []
    for i, row in enumerate(rows):
        row["routes"] = [p for p in row["paths"] if writable(p)]
        for route in row["routes"]:
            routes.append((i, route, "route"))
        owners = sorted({p.rpartition(".")[0] for p in row["class_paths"] if writable(p)})
        if owners and row["attr"].isidentifier() and not keyword.iskeyword(row["attr"]):
            routes.extend((i, owner, "owner") for owner in owners)
            routes.append((i, f"obj.{row['attr']}", "instance"))
    return routes


def check_blocks(exe, modules, blocks):
    """Run `pdfagent check --json` on files of blocks of lines (under a header that imports
    every allowed module); for each block, {relative line: the rule that refuses it}. The
    checker reports every line it refuses, so one file holds many blocks (chunked to stay
    under its input limit)."""
    header = [f"import {m}" for m in modules] + ["obj = 1"]
    results = [None] * len(blocks)
    pending = list(range(len(blocks)))
    while pending:
        lines, size, chunk = list(header), 0, []
        while pending and size < 150_000:
            i = pending.pop()
            chunk.append((i, len(lines)))
            lines.extend(blocks[i])
            size += sum(len(line) + 1 for line in blocks[i])
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write("\n".join(lines) + "\n")
            name = f.name
        try:
            res = subprocess.run([exe, "check", "--json", "--code", name],
                                 capture_output=True, text=True, check=False)
        finally:
            os.unlink(name)
        try:
            doc = json.loads(res.stdout)
        except json.JSONDecodeError as exc:
            raise AuditError(f"`pdfagent check --json` printed no JSON: {res.stderr}") from exc
        starts = sorted((start, i) for i, start in chunk)
        for i, _ in chunk:
            results[i] = {}
        for err in doc.get("errors", []):
            line = err["line"] - 1  # 0-based in `lines`
            owner = None
            for start, i in starts:
                if start <= line < start + len(blocks[i]):
                    owner = (i, line - start)
            if owner is None:
                raise AuditError(f"`pdfagent check` refused a line the audit wrote itself: {err}")
            results[owner[0]].setdefault(owner[1], err["rule"])
    return results


def run_checker(exe, modules, expressions):
    """{expression: the rule that refuses `x = EXPRESSION`, or None}."""
    exprs = sorted(set(expressions))
    results = check_blocks(exe, modules, [[f"x = {e}"] for e in exprs])
    return {e: r.get(0) for e, r in zip(exprs, results, strict=True)}


PRIVATE_ROUTES = ("self._x", "super()._x", "Base._x(self)")


def private_block(i, row):
    base, attr = row["class_path"], row["attr"]
    return [f"class PdfagentReach{i}({base}):", "    def probe(self):",
            f"        a = self.{attr}", f"        b = super().{attr}",
            f"        c = {base}.{attr}(self)"]


def decide_private(doc, exe, modules, review, problems):
    """Private methods a subclass of a library class reaches: refused-by-layer1 when the
    checker refuses the base's name (the first path the walk found) or every one of
    self._x, super()._x and Base._x(self). Not modelled: `class C(type(instance))`, which
    names the class of any instance code holds — as for public methods, a class code cannot
    name is taken as one it does not subclass."""
    rows = [r for r in doc.get("private", []) if writable(r["class_path"])]
    results = check_blocks(exe, modules, [private_block(i, r) for i, r in enumerate(rows)])
    for r, errs in zip(rows, results, strict=True):
        r["accepted"] = [] if 0 in errs else [
            route for n, route in enumerate(PRIVATE_ROUTES, start=2) if n not in errs]
        if not r["accepted"]:
            r["disposition"] = "refused-by-layer1"
            continue
        used, missing = reviewed(r, review)
        if missing:
            r["disposition"] = "UNREVIEWED"
            for cap, sink in missing:
                problems.setdefault((cap, sink), []).append(
                    f"class C({r['class_path']}): ... self.{r['attr']}")
        else:
            r["disposition"] = "+".join(sorted({u["disposition"] for u in used}))
    return rows


def load_review():
    if not REVIEW.exists():
        return []
    with REVIEW.open("rb") as f:
        rows = tomllib.load(f).get("reach", [])
    for r in rows:
        for field in ("name", "caps", "disposition", "reason"):
            if field not in r:
                raise AuditError(f"{REVIEW.name}: a [[reach]] row lacks `{field}`: {r}")
        if r["disposition"] not in DISPOSITIONS[1:]:
            raise AuditError(
                f"{REVIEW.name}: `{r['name']}` has disposition {r['disposition']!r}; a row says "
                "neutralised-by-preamble, confined-by-layer2 or not-a-capability "
                "(refused-by-layer1 is computed by running the checker, never written)")
        r["used"] = False
    return rows


def review_for(name, cap, review):
    """The first [[reach]] row whose name (or glob) matches `name` and that covers `cap`."""
    for r in review:
        if fnmatch.fnmatchcase(name, r["name"]) and ("*" in r["caps"] or cap in r["caps"]):
            r["used"] = True
            return r
    return None


def reviewed(row, review):
    """(rows that cover every capability of `row`, [(cap, sink) nothing covers]).

    A capability is covered by a row for the callable itself or, failing that, by rows for
    every sink it reaches it through (the function whose own code has it: reviewing
    `pandas.io.common.get_handle` once covers every reader that goes through it)."""
    used, missing = [], []
    for cap, sinks in row["sinks"].items():
        own = review_for(row["name"], cap, review)
        if own is not None:
            used.append(own)
            continue
        for sink in sinks:
            hit = review_for(sink, cap, review)
            if hit is None:
                missing.append((cap, sink))
            else:
                used.append(hit)
    return used, missing


def decide(doc, exe, modules):
    rows = doc["callables"]
    flagged = [r for r in rows if r["caps"]]
    routes = checker_routes(flagged)
    verdict = run_checker(exe, modules, [expr for _, expr, _ in routes])
    for r in flagged:
        r["accepted"] = []
        r["refused_by"] = set()
        r["owner_reachable"] = False
    for i, expr, what in routes:
        if what == "owner":
            flagged[i]["owner_reachable"] |= verdict[expr] is None
    for i, expr, what in routes:
        row = flagged[i]
        if what == "owner" or (what == "instance" and not row["owner_reachable"]):
            continue
        if verdict[expr] is None:
            row["accepted"].append(expr)
        else:
            row["refused_by"].add(verdict[expr])
    review = load_review()
    problems = {}
    for r in flagged:
        if r["routes"] and not r["accepted"]:
            r["disposition"] = "refused-by-layer1"
            r["reason"] = "check refuses " + ",".join(sorted(r["refused_by"]))
        elif r["preamble"]:
            r["disposition"] = "neutralised-by-preamble"
            r["reason"] = "the worker's own replacement"
        else:
            used, missing = reviewed(r, review)
            if missing:
                r["disposition"] = "UNREVIEWED"
                r["reason"] = ""
                for cap, sink in missing:
                    problems.setdefault((cap, sink), []).append(
                        (r["accepted"] or r["paths"])[0])
            else:
                r["disposition"] = "+".join(sorted({u["disposition"] for u in used}))
                r["reason"] = " / ".join(dict.fromkeys(u["reason"] for u in used))
    private = decide_private(doc, exe, modules, review, problems)
    stale = [r["name"] for r in review if not r["used"]]
    return flagged, private, problems, stale


def load_registry_review():
    if not REVIEW.exists():
        return []
    with REVIEW.open("rb") as f:
        rows = tomllib.load(f).get("registry", [])
    for r in rows:
        for field in ("name", "reason"):
            if field not in r:
                raise AuditError(f"{REVIEW.name}: a [[registry]] row lacks `{field}`: {r}")
        r["used"] = False
    return rows


def decide_registries(doc, exe, modules):
    """The registry detector (issue 40): every mutable container a module or class code
    reaches holds under a public name whose values name modules or callables (walker.py's
    `registries`) is `refused-by-layer1` when `pdfagent check` refuses `x = PATH`, `read-only`
    when the worker froze it (a mapping proxy), or reviewed by a [[registry]] row of
    reach-review.toml (name or glob, reason) — else the audit fails, so the next registry
    is found by machine."""
    rows = doc.get("registries", [])
    routes = [r["path"] for r in rows if r["mutable"] and writable(r["path"])]
    verdict = run_checker(exe, modules, routes) if routes else {}
    review = load_registry_review()
    unreviewed = []
    for r in rows:
        if not r["mutable"]:
            r["disposition"], r["reason"] = "read-only", "a read-only mapping proxy"
            continue
        rule = verdict.get(r["path"])
        if rule is not None:
            r["disposition"], r["reason"] = "refused-by-layer1", f"check refuses {rule}"
            continue
        hit = next((v for v in review if fnmatch.fnmatchcase(r["path"], v["name"])), None)
        if hit is None:
            r["disposition"], r["reason"] = "UNREVIEWED", ""
            unreviewed.append(r["path"])
        else:
            hit["used"] = True
            r["disposition"], r["reason"] = "reviewed", hit["reason"]
    stale = [v["name"] for v in review if not v["used"]]
    return rows, unreviewed, stale


def _count(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return counts.items()


def snapshot_text(doc, flagged, private, registries=()):
    rows = doc["callables"]
    c_rows = [r for r in rows if not r["caps"] and r["kind"] in ("c-function", "c-class")]
    by_disp = {}
    for r in flagged:
        by_disp[r["disposition"]] = by_disp.get(r["disposition"], 0) + 1
    out = [
        "# Layer 1 reachability snapshot (issue 28, item 6): written by `scripts/audit-reach "
        "--update`, checked by `scripts/audit-reach` in scripts/test. Do not edit by hand.",
        "# What every allowed name can reach, walked inside the worker from the allowlist's "
        "modules and the preamble's names (python-runtime/tests/reach/walker.py).",
        f"# callables reached: {len(rows)}; flagged: {len(flagged)} ("
        + ", ".join(f"{k} {v}" for k, v in sorted(by_disp.items()))
        + f"); unflagged C callables (cannot be scanned, listed by name): {len(c_rows)}",
        "# objects by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(doc["counts"].items())),
        f"# private methods a subclass reaches that do more than read files: {len(private)} ("
        + ", ".join(f"{k} {v}" for k, v in sorted(_count(r["disposition"] for r in private)))
        + ")",
        "#",
        "# FLAGGED: name\tkind\tcapabilities\tdisposition\tpath code writes (an accepted one "
        "first)\tevidence (the call chain to the capability)",
    ]
    for r in sorted(flagged, key=lambda r: r["name"]):
        path = (r["accepted"] or r["paths"])[0]
        caps = ",".join(r["caps"])
        # The call chains matter where the checker accepts the callable.
        evidence = "" if r["disposition"] == "refused-by-layer1" else "; ".join(
            f"{k}: {v}" for k, v in r["caps"].items())
        out.append(f"{r['name']}\t{r['kind']}\t{caps}\t{r['disposition']}\t{path}\t{evidence}")
    out.append("#")
    out.append("# PRIVATE METHODS a subclass reaches (self._x, super()._x, Base._x(self)) that "
               "can do more than read files: name\tclass code subclasses\tattribute\t"
               "capabilities\tdisposition\troutes check accepts\tevidence")
    for r in private:
        evidence = "" if r["disposition"] == "refused-by-layer1" else "; ".join(
            f"{k}: {v}" for k, v in r["caps"].items())
        out.append(f"{r['name']}\t{r['class_path']}\t{r['attr']}\t{','.join(r['caps'])}\t"
                   f"{r['disposition']}\t{','.join(r['accepted']) or '-'}\t{evidence}")
    out.append("#")
    out.append("# REVIEWED PRIVATE NAMES (allowlist.toml's reviewed_private, read-only on any "
               "object): name\tclass that has it\thow (its callables are in FLAGGED/C above "
               "when they can do anything)")
    for r in doc.get("reviewed_private", []):
        out.append(f"{r['name']}\t{r['class']}\t{r['how']}")
    out.append("#")
    out.append("# REGISTRIES (issue 40): containers code reaches under a public name whose values "
               "name modules or callables: path\ttype\tsize\tdisposition\twhat the values "
               "name\treason")
    for r in registries:
        hits = "; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(r["hits"].items()))
        out.append(f"{r['path']}\t{r['type']}\t{r['size']}\t{r['disposition']}\t{hits}\t"
                   f"{r['reason']}")
    out.append("#")
    out.append("# C CALLABLES (not scannable, no capability in their name): name\tkind\tpath")
    for r in sorted(c_rows, key=lambda r: r["name"]):
        out.append(f"{r['name']}\t{r['kind']}\t{r['paths'][0]}")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the committed snapshot")
    ap.add_argument("--exe", default=str(ROOT / "target" / "release" / "pdfagent"))
    ap.add_argument("--keep", help="keep the worker's folders and output in this folder")
    args = ap.parse_args(argv)
    if not Path(args.exe).is_file():
        print(f"audit-reach: no executable at `{args.exe}`: build it with "
              "`cargo build --release -p pdfagent` (or give --exe)", file=sys.stderr)
        return 2
    modules = allowlisted_modules()
    try:
        doc = run_walker(args.exe, modules, args.keep)
        flagged, private, problems, stale = decide(doc, args.exe, modules)
        registries, unreviewed, stale_registries = decide_registries(doc, args.exe, modules)
    except AuditError as exc:
        print(f"audit-reach: {exc}", file=sys.stderr)
        return 2
    text = snapshot_text(doc, flagged, private, registries)
    if args.keep:
        Path(args.keep, "reach.json").write_text(json.dumps(doc, indent=1, default=list))
    print(f"audit-reach: walked {len(doc['callables'])} callables in {doc['elapsed_s']:.1f} s; "
          f"{len(flagged)} flagged", file=sys.stderr)
    failed = False
    if args.update:
        SNAPSHOT.write_text(text)
        print(f"audit-reach: wrote {SNAPSHOT.relative_to(ROOT)}", file=sys.stderr)
    else:
        old = SNAPSHOT.read_text() if SNAPSHOT.exists() else ""
        if old != text:
            diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(),
                                             "committed", "now", n=0, lineterm=""))
            print("audit-reach: the reachability snapshot changed (first 80 lines of the "
                  "diff):\n" + "\n".join(diff[:80]), file=sys.stderr)
            print(HOW_TO_REVIEW, file=sys.stderr)
            failed = True
    if problems:
        lines = [f"  {sink} [{cap}], reached by {len(paths)} accepted callables, e.g. `{paths[0]}`"
                 for (cap, sink), paths in sorted(problems.items())]
        print(f"audit-reach: {len(problems)} capabilities of callables that `pdfagent check` "
              "accepts have no review row (sink [capability]):\n" + "\n".join(lines),
              file=sys.stderr)
        print(HOW_TO_REVIEW, file=sys.stderr)
        failed = True
    unmatched = sorted(set(reviewed_private_names())
                       - {r["name"] for r in doc.get("reviewed_private", [])})
    if unmatched:
        print("audit-reach: reviewed private names that no class of the runtime has (remove "
              "them from allowlist.toml): " + ", ".join(unmatched), file=sys.stderr)
        failed = True
    if stale:
        print("audit-reach: review rows that match nothing any more (remove them):\n  "
              + "\n  ".join(stale), file=sys.stderr)
        failed = True
    if unreviewed:
        print(f"audit-reach: {len(unreviewed)} registries (mutable containers whose values name "
              "modules or callables) that `pdfagent check` accepts have no [[registry]] row in "
              "reach-review.toml: freeze them in harden.py, make Layer 1 refuse them, or review "
              "them:\n  " + "\n  ".join(unreviewed), file=sys.stderr)
        failed = True
    if stale_registries:
        print("audit-reach: [[registry]] rows that match nothing any more (remove them):\n  "
              + "\n  ".join(stale_registries), file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
