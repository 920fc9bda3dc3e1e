// The selftest report: imports N/N, savefig bytes, interpreter facts, and every check
// (canaries included) with contained / not contained. Failed items are red with the reason.

export interface SelftestItem {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SelftestReport {
  ok: boolean;
  runtime: string | null;
  checks: SelftestItem[];
  imports: { ok: number; total: number; modules: { name: string; ok: boolean; error: string; ms: number }[] };
  savefig: { ok: boolean; bytes: number; error: string; ms: number } | null;
  interpreter: {
    version: string;
    prefix: string;
    prefix_inside_runtime: boolean;
    isolated: number;
    path: { path: string; inside_runtime: boolean }[];
  } | null;
  libpython: string | null;
  confinement: { summary: string } | null;
  worker_exit: string;
  stderr_tail: string;
  total_ms: number;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

export function renderSelftest(box: HTMLElement, r: SelftestReport) {
  const parts: Node[] = [];
  const verdict = el("p", r.ok ? "✓ Everything works" : "✗ Something is wrong", r.ok ? "verdict ok" : "verdict bad");
  verdict.id = "selftest-verdict";
  parts.push(verdict);
  const summary = el("p", undefined, "summary");
  summary.id = "selftest-summary";
  summary.textContent =
    `imports ${r.imports.ok}/${r.imports.total} · ` +
    (r.savefig ? `savefig ${r.savefig.bytes.toLocaleString("en")} bytes` : "savefig —") +
    ` · ${(r.total_ms / 1000).toFixed(1)} s`;
  parts.push(summary);

  const facts = el("dl", undefined, "facts");
  const fact = (k: string, v: string) => facts.append(el("dt", k), el("dd", v));
  if (r.interpreter) {
    const py = r.interpreter;
    fact("Python", `${py.version.split(" ")[0]} · isolated ${py.isolated}`);
    fact("prefix", `${py.prefix}${py.prefix_inside_runtime ? " (inside the runtime)" : " (OUTSIDE the runtime)"}`);
    const inside = py.path.filter((p) => p.inside_runtime).length;
    fact("sys.path", `${inside}/${py.path.length} entries inside the runtime`);
  }
  if (r.runtime) fact("runtime", r.runtime);
  if (r.libpython) fact("libpython", r.libpython);
  if (r.confinement) fact("confinement", r.confinement.summary);
  fact("worker", r.worker_exit);
  parts.push(facts);

  const canaries = r.checks.filter((c) => c.name.startsWith("canary: "));
  const others = r.checks.filter((c) => !c.name.startsWith("canary: "));
  if (canaries.length) {
    parts.push(el("h3", "Confinement canaries"));
    const ul = el("ul", undefined, "checks");
    ul.id = "selftest-canaries";
    for (const c of canaries) {
      const li = el("li", undefined, c.ok ? "ok" : "bad");
      li.dataset.ok = String(c.ok);
      li.append(el("strong", `${c.ok ? "✓ contained" : "✗ NOT contained"} — ${c.name.slice("canary: ".length)}`), el("span", c.detail));
      ul.append(li);
    }
    parts.push(ul);
  }
  parts.push(el("h3", "Checks"));
  const ul = el("ul", undefined, "checks");
  ul.id = "selftest-checks";
  for (const c of others) {
    const li = el("li", undefined, c.ok ? "ok" : "bad");
    li.dataset.ok = String(c.ok);
    li.append(el("strong", `${c.ok ? "✓" : "✗"} ${c.name}`), el("span", c.detail));
    ul.append(li);
  }
  parts.push(ul);
  const failedImports = r.imports.modules.filter((m) => !m.ok);
  if (failedImports.length) {
    parts.push(el("h3", "Imports that failed"));
    const fl = el("ul", undefined, "checks");
    for (const m of failedImports) {
      const li = el("li", undefined, "bad");
      li.append(el("strong", `✗ ${m.name}`), el("span", m.error));
      fl.append(li);
    }
    parts.push(fl);
  }
  if (!r.ok && r.stderr_tail.trim()) {
    parts.push(el("h3", "Worker stderr (tail)"), el("pre", r.stderr_tail.split("\n").slice(-15).join("\n"), "messages error"));
  }
  box.replaceChildren(...parts);
}
