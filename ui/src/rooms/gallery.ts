// The Gallery room: the figures of this session (newest first; selecting one shows it), and
// the History panel — every figure made for the open data folder, kept by the app across
// launches (app data folder, never beside the data), each with its time, size and whether
// its data changed since (stale). Selecting a history entry loads its code into the editor;
// "Re-run stale" redraws the stale ones through the same checked, confined pipeline as Run,
// with progress and Cancel. Everything goes through the app's commands.

import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { FigureFormat, Freshness, HistoryEntry, HistoryProgress, RerunSummary, SavedFigure } from "../bindings";
import { $, baseName, el, errorText, fmtBytes, showMessage, showRestart } from "../dom";
import * as state from "../state";
import type { GalleryItem } from "../state";

const MIME: Record<FigureFormat, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

/** Mount the gallery and the History panel; `load` puts an entry's code and name into the editor. */
export async function mountGallery(load: (code: string, name: string) => void) {
  state.on("gallery", renderGallery);
  state.on("current", markCurrent);
  state.on("folder", () => void refreshHistory());
  await mountHistory(load);
}

/** Every figure of one run into the gallery (in order); the first is shown. */
export async function addRun(figures: SavedFigure[], code: string) {
  const when = new Date();
  const run: GalleryItem[] = [];
  for (const f of figures) {
    const data = await invoke<ArrayBuffer>("figure_bytes", { path: f.path });
    const blob = new Blob([data], { type: MIME[f.format] });
    const name = baseName(f.path).replace(/\.[^.]+$/, "");
    run.push({
      name, path: f.path, bytes: f.bytes, format: f.format, when,
      url: URL.createObjectURL(blob), blob, code, warnings: warningsOf(f), run,
    });
  }
  // Re-running a name replaces its figures on disk; the gallery keeps one entry per file.
  state.addToGallery(run);
  state.showFigure(run[0]);
  void refreshHistory();
}

/**
 * The sentences of a figure's report warnings. The report is what the confined worker
 * wrote: its shape is `FigureReport`, but it is read here without trusting that.
 */
function warningsOf(f: SavedFigure): string[] {
  const warnings: unknown = f.report?.warnings;
  if (!Array.isArray(warnings)) return [];
  return warnings.map((w) => (typeof w?.message === "string" ? w.message : "")).filter((m) => m);
}

function renderGallery() {
  const current = state.currentFigure();
  $("gallery").replaceChildren(
    ...state.galleryItems().map((item) => {
      const b = el("button", { type: "button", title: item.path });
      b.dataset.path = item.path;
      b.append(
        el("img", { src: item.url, alt: "" }),
        el("span", {}, el("strong", item.name), el("small", `${fmtBytes(item.bytes)} · ${item.when.toLocaleTimeString()}`)),
      );
      b.addEventListener("click", () => state.showFigure(item));
      b.setAttribute("aria-current", String(current?.path === item.path));
      return el("li", {}, b);
    }),
  );
}

function markCurrent() {
  const current = state.currentFigure();
  for (const b of document.querySelectorAll<HTMLElement>("#gallery button")) {
    b.setAttribute("aria-current", String(b.dataset.path === current?.path));
  }
}

// ---- history ---------------------------------------------------------------------------

const STATE_TEXT: Record<Freshness, string> = {
  fresh: "fresh",
  stale: "stale",
  gone: "file gone",
  "no-record": "no record",
  untrusted: "record not trusted",
};

let refreshHistory: () => Promise<void> = async () => {};

/** Build the History panel in #history-panel. */
async function mountHistory(load: (code: string, name: string) => void) {
  const rerun = el("button", { id: "history-rerun", type: "button", textContent: "Re-run stale", disabled: true });
  rerun.title = "Redraw every figure whose data changed since it was made";
  const cancel = el("button", { id: "history-cancel", type: "button", textContent: "Cancel", hidden: true });
  const progress = el("span", { id: "history-progress", className: "note" });
  const list = el("ul", { id: "history", className: "history" });
  list.setAttribute("aria-label", "Every figure made for this data folder");
  $("history-panel").replaceChildren(
    el("h2", { id: "history-title", textContent: "History" }),
    el("div", { className: "history-actions" }, rerun, cancel, progress),
    list,
  );
  let rerunning = false;

  refreshHistory = async () => {
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
      const freshness = el("span", { className: `history-state ${entry.state}`, textContent: STATE_TEXT[entry.state] });
      if (entry.changed.length) freshness.title = `changed: ${entry.changed.join(", ")}`;
      const text = el(
        "span",
        { className: "history-text" },
        el("strong", baseName(entry.file)),
        el("small", `${when} · ${fmtBytes(entry.bytes)}`),
      );
      button.append(text, freshness);
      button.addEventListener("click", () => {
        for (const b of list.querySelectorAll("button")) b.removeAttribute("aria-current");
        button.setAttribute("aria-current", "true");
        load(entry.code, entry.name);
      });
      return el("li", {}, button);
    });
    list.replaceChildren(...items);
    if (!entries.length) list.append(el("li", { className: "note", textContent: "No figures made for this folder yet." }));
    const stale = entries.filter((e) => e.state === "stale").length;
    rerun.disabled = rerunning || stale === 0;
    rerun.textContent = stale ? `Re-run stale (${stale})` : "Re-run stale";
  };

  await listen<HistoryProgress>("history-progress", (ev) => {
    const p = ev.payload;
    const what = baseName(p.file);
    progress.textContent =
      p.ok === null ? `Redrawing ${what} (${p.done + 1} of ${p.total})…` : `${p.done} of ${p.total} done${p.ok ? "" : ` (${what} failed)`}`;
  });

  rerun.addEventListener("click", async () => {
    if (rerunning || state.isRunning()) return;
    rerunning = true;
    rerun.disabled = true;
    cancel.hidden = false;
    state.setRunning(true);
    progress.textContent = "Starting…";
    try {
      const s = await invoke<RerunSummary>("history_rerun_stale");
      progress.textContent = s.cancelled
        ? `Cancelled: ${s.redrawn} of ${s.total} redrawn.`
        : `${s.redrawn} of ${s.total} redrawn${s.failed.length ? `; failed: ${s.failed.map(baseName).join(", ")}` : "."}`;
      if (s.updated) showRestart(s.updated);
      else if (s.failed.length) showMessage(`Re-run failed for ${s.failed.join(", ")}: select one to see its code and run it.`);
    } catch (e) {
      progress.textContent = "";
      showMessage(errorText(e));
    } finally {
      rerunning = false;
      cancel.hidden = true;
      state.setRunning(false);
      await refreshHistory();
    }
  });
  cancel.addEventListener("click", () => void invoke("cancel_run"));

  await refreshHistory();
}
