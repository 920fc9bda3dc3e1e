// The History panel: every figure made for the open data folder, kept by the app across
// launches (app data folder, never beside the data), each with its time, size and whether
// its data changed since (stale). Selecting one loads its code into the editor; "Re-run
// stale" redraws the stale ones through the same checked, confined pipeline as Run, with
// progress and Cancel. Everything goes through the app's commands.

import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";

export interface HistoryEntry {
  file: string;
  name: string;
  format: string;
  created: string;
  bytes: number;
  code: string;
  state: "fresh" | "stale" | "gone" | "no-record" | "untrusted";
  changed: string[];
}

interface Progress {
  done: number;
  total: number;
  file: string;
  ok: boolean | null;
  message: string | null;
}

interface RerunSummary {
  total: number;
  redrawn: number;
  failed: string[];
  cancelled: boolean;
}

export interface HistoryHooks {
  /** Put a figure's code and name into the editor. */
  load(code: string, name: string): void;
  /** Whether a figure run is in progress (Re-run waits for it). */
  busy(): boolean;
  /** Called when a re-run starts and ends, so the window can disable Run meanwhile. */
  running(on: boolean): void;
  message(text: string, kind?: "error" | "info"): void;
}

const STATE_TEXT: Record<HistoryEntry["state"], string> = {
  fresh: "fresh",
  stale: "stale",
  gone: "file gone",
  "no-record": "no record",
  untrusted: "record not trusted",
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}) {
  return Object.assign(document.createElement(tag), props);
}

function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Build the panel inside `root`; returns `refresh` to call after a run or a folder change. */
export async function mountHistory(root: HTMLElement, hooks: HistoryHooks): Promise<{ refresh(): Promise<void> }> {
  const title = el("h2", { id: "history-title", textContent: "History" });
  const rerun = el("button", { id: "history-rerun", type: "button", textContent: "Re-run stale", disabled: true });
  rerun.title = "Redraw every figure whose data changed since it was made";
  const cancel = el("button", { id: "history-cancel", type: "button", textContent: "Cancel", hidden: true });
  const progress = el("span", { id: "history-progress", className: "note" });
  const bar = el("div", { className: "history-actions" });
  bar.append(rerun, cancel, progress);
  const list = el("ul", { id: "history", className: "history" });
  list.setAttribute("aria-label", "Every figure made for this data folder");
  root.replaceChildren(title, bar, list);
  let rerunning = false;

  async function refresh() {
    let entries: HistoryEntry[];
    try {
      entries = await invoke<HistoryEntry[]>("history_list");
    } catch {
      entries = []; // no folder open yet
    }
    const items = entries.map((entry) => {
      const button = el("button", { type: "button" });
      button.dataset.file = entry.file;
      button.dataset.state = entry.state;
      const when = entry.created.replace("T", " ").replace("Z", " UTC");
      const state = el("span", { className: `history-state ${entry.state}`, textContent: STATE_TEXT[entry.state] });
      if (entry.changed.length) state.title = `changed: ${entry.changed.join(", ")}`;
      const text = el("span", { className: "history-text" });
      text.append(
        el("strong", { textContent: baseName(entry.file) }),
        el("small", { textContent: `${when} · ${fmtBytes(entry.bytes)}` }),
      );
      button.append(text, state);
      button.addEventListener("click", () => {
        for (const b of list.querySelectorAll("button")) b.removeAttribute("aria-current");
        button.setAttribute("aria-current", "true");
        hooks.load(entry.code, entry.name);
      });
      return el("li").appendChild(button).parentElement as HTMLLIElement;
    });
    list.replaceChildren(...items);
    if (!entries.length) list.append(el("li", { className: "note", textContent: "No figures made for this folder yet." }));
    const stale = entries.filter((e) => e.state === "stale").length;
    rerun.disabled = rerunning || stale === 0;
    rerun.textContent = stale ? `Re-run stale (${stale})` : "Re-run stale";
  }

  await listen<Progress>("history-progress", (ev) => {
    const p = ev.payload;
    const what = baseName(p.file);
    progress.textContent =
      p.ok === null ? `Redrawing ${what} (${p.done + 1} of ${p.total})…` : `${p.done} of ${p.total} done${p.ok ? "" : ` (${what} failed)`}`;
  });

  rerun.addEventListener("click", async () => {
    if (rerunning || hooks.busy()) return;
    rerunning = true;
    rerun.disabled = true;
    cancel.hidden = false;
    hooks.running(true);
    progress.textContent = "Starting…";
    try {
      const s = await invoke<RerunSummary>("history_rerun_stale");
      progress.textContent = s.cancelled
        ? `Cancelled: ${s.redrawn} of ${s.total} redrawn.`
        : `${s.redrawn} of ${s.total} redrawn${s.failed.length ? `; failed: ${s.failed.map(baseName).join(", ")}` : "."}`;
      if (s.failed.length) hooks.message(`Re-run failed for ${s.failed.join(", ")}: select one to see its code and run it.`);
    } catch (e) {
      progress.textContent = "";
      hooks.message(String(e));
    } finally {
      rerunning = false;
      cancel.hidden = true;
      hooks.running(false);
      await refresh();
    }
  });
  cancel.addEventListener("click", () => void invoke("cancel_run"));

  await refresh();
  return { refresh };
}
