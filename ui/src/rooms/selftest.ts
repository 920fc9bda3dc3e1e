// The Selftest room: runs `pdfagent selftest` in the confined worker and shows the report —
// imports N/N, savefig bytes, interpreter facts, and every check (canaries included) with
// contained / not contained. Failed items are red with the reason.

import { invoke } from "@tauri-apps/api/core";
import type { SelftestReport } from "../bindings";
import { $, el, errorText, showRestart, stopwatch } from "../dom";

export function mountSelftest() {
  const button = $<HTMLButtonElement>("selftest");
  button.addEventListener("click", async () => {
    const dialog = $<HTMLDialogElement>("selftest-dialog");
    const report = $("selftest-report");
    const progress = $("selftest-progress");
    report.replaceChildren();
    progress.hidden = false;
    button.disabled = true;
    dialog.showModal();
    const stopTimer = stopwatch($("selftest-elapsed"));
    try {
      renderSelftest(report, await invoke<SelftestReport>("run_selftest"));
    } catch (e) {
      report.replaceChildren(el("p", { className: "error", textContent: errorText(e) }));
    } finally {
      stopTimer();
      progress.hidden = true;
      button.disabled = false;
    }
  });
}

function renderSelftest(box: HTMLElement, r: SelftestReport) {
  if (r.updated) {
    // Nothing was tried: no check and no canary can say anything about this installation.
    showRestart(r.updated);
    box.replaceChildren(el("p", { id: "selftest-verdict", className: "verdict bad", textContent: r.updated }));
    return;
  }
  const parts: Node[] = [];
  parts.push(
    el("p", {
      id: "selftest-verdict",
      className: r.ok ? "verdict ok" : "verdict bad",
      textContent: r.ok ? "✓ Everything works" : "✗ Something is wrong",
    }),
  );
  const summary = el("p", { id: "selftest-summary", className: "summary" });
  summary.textContent =
    `imports ${r.imports.ok}/${r.imports.total} · ` +
    (r.savefig ? `savefig ${r.savefig.bytes.toLocaleString("en")} bytes` : "savefig —") +
    ` · ${(r.total_ms / 1000).toFixed(1)} s`;
  parts.push(summary);

  const facts = el("dl", { className: "facts" });
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
  if (r.confinement) fact("confinement", r.confinement.summary.replace(/^confinement: /, ""));
  fact("worker", r.worker_exit);
  parts.push(facts);

  const canaries = r.checks.filter((c) => c.name.startsWith("canary: "));
  const others = r.checks.filter((c) => !c.name.startsWith("canary: "));
  if (canaries.length) {
    parts.push(el("h3", "Confinement canaries"));
    const ul = el("ul", { id: "selftest-canaries", className: "checks" });
    for (const c of canaries) {
      const li = el("li", { className: c.ok ? "ok" : "bad" });
      li.dataset.ok = String(c.ok);
      li.append(el("strong", `${c.ok ? "✓ contained" : "✗ NOT contained"} — ${c.name.slice("canary: ".length)}`), el("span", c.detail));
      ul.append(li);
    }
    parts.push(ul);
  }
  parts.push(el("h3", "Checks"));
  const ul = el("ul", { id: "selftest-checks", className: "checks" });
  for (const c of others) {
    const li = el("li", { className: c.ok ? "ok" : "bad" });
    li.dataset.ok = String(c.ok);
    li.append(el("strong", `${c.ok ? "✓" : "✗"} ${c.name}`), el("span", c.detail));
    ul.append(li);
  }
  parts.push(ul);
  const failedImports = r.imports.modules.filter((m) => !m.ok);
  if (failedImports.length) {
    parts.push(el("h3", "Imports that failed"));
    const fl = el("ul", { className: "checks" });
    for (const m of failedImports) {
      const li = el("li", { className: "bad" });
      li.append(el("strong", `✗ ${m.name}`), el("span", m.error));
      fl.append(li);
    }
    parts.push(fl);
  }
  if (!r.ok && r.stderr_tail.trim()) {
    parts.push(el("h3", "Worker stderr (tail)"), el("pre", { className: "messages error", textContent: r.stderr_tail.split("\n").slice(-15).join("\n") }));
  }
  box.replaceChildren(...parts);
}
