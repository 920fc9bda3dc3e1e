// The History panel — the lab notebook: every figure made for the open data folder, kept by
// the app across launches (app data folder, never beside the data), each with its picture,
// time, size and whether its data changed since (stale).
//
// - Each entry shows a thumbnail (the figure file's bytes from `history_figure`, shown from a
//   `blob:` URL and scaled by CSS: nothing is decoded outside the webview's own image code),
//   loaded when it scrolls into view.
// - Each entry groups the earlier versions of its figure (the figures folder's store, kept
//   by every run that replaced it), each with its picture and a Restore button.
// - Selecting an entry or a version shows its figure in the Figure pane and loads its code
//   into the editor; nothing is armed to be lost: a Run under that name keeps the figure it
//   replaces as a version (see `RunRoom.startFrom`).
// - Staleness is live: the app watches the data folder and sends `data-changed`; the panel
//   then asks again (`history_list` judges every entry from its figure's record).
// - "Re-run stale" redraws the stale ones through the same checked, confined pipeline as
//   Run, with progress and Cancel; the redrawn figures land here and in the session's gallery.

import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { DataChanged, FigureFormat, Freshness, HistoryEntry, HistoryProgress, HistoryVersion, RerunSummary } from "../bindings";
import { $, baseName, el, errorText, fmtBytes, fmtTime, showMessage, showRestart } from "../dom";
import * as state from "../state";
import type { GalleryItem } from "../state";
import { MIME, addRun } from "./gallery";

const STATE_TEXT: Record<Freshness, string> = {
  fresh: "fresh",
  stale: "stale",
  gone: "file gone",
  "no-record": "no record",
  untrusted: "record not trusted",
};

/** What selecting an entry or a version does besides showing its figure: its code into the
 * editor, under the entry's name. */
export type LoadEntry = (code: string, name: string) => void;

/** A picture as the window keeps it: its `blob:` URL and the blob (Copy uses it). */
interface Picture {
  url: string;
  blob: Blob;
}

// Pictures by file and version of the file (a redrawn figure has another time and size).
const pictures = new Map<string, Promise<Picture | null>>();

/** A figure file the history names: an entry's, or a kept version's. */
interface Shown {
  file: string;
  format: FigureFormat;
  created: string;
  bytes: number;
}
const pictureKey = (e: Shown) => `${e.file}\n${e.created}\n${e.bytes}`;

/** Whether the window can draw the file (a PDF is opened with the system's viewer). */
const drawable = (e: Shown & { state?: Freshness }) => e.state !== "gone" && e.format !== "pdf";

function picture(entry: Shown): Promise<Picture | null> {
  const key = pictureKey(entry);
  let found = pictures.get(key);
  if (!found) {
    found = invoke<ArrayBuffer>("history_figure", { file: entry.file })
      .then((data) => {
        const blob = new Blob([data], { type: MIME[entry.format] });
        return { url: URL.createObjectURL(blob), blob };
      })
      .catch(() => null); // moved or deleted meanwhile: the entry shows no picture
    pictures.set(key, found);
  }
  return found;
}

/** Forget the pictures of files no entry shows any more (their URLs are released). */
function prune(entries: HistoryEntry[]) {
  const live = new Set([...entries.map(pictureKey), ...entries.flatMap((e) => e.versions.map(pictureKey))]);
  for (const [key, p] of pictures) {
    if (live.has(key)) continue;
    pictures.delete(key);
    void p.then((pic) => pic && URL.revokeObjectURL(pic.url));
  }
}

/** An entry (or a version of it) as a figure of the Figure pane. */
async function asFigure(entry: Shown & { state?: Freshness }, name: string, code: string): Promise<GalleryItem> {
  const pic = drawable(entry) ? await picture(entry) : null;
  const item: GalleryItem = {
    name,
    path: entry.file,
    bytes: entry.bytes,
    format: entry.format,
    when: new Date(entry.created),
    url: pic?.url ?? "",
    blob: pic?.blob ?? new Blob(),
    code,
    warnings: [],
    run: [],
  };
  item.run.push(item);
  return item;
}

/** Build the History panel in #history-panel; `load` puts a selected entry's code in the editor. */
export async function mountHistory(load: LoadEntry) {
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
  let selected: string | null = null;

  // Thumbnails are fetched when their entry scrolls into view (a history holds up to 500).
  const thumbs = new IntersectionObserver(
    (seen) => {
      for (const s of seen) {
        if (!s.isIntersecting) continue;
        const img = s.target as HTMLImageElement & { entry?: Shown };
        thumbs.unobserve(img);
        if (img.entry) void picture(img.entry).then((pic) => pic && (img.src = pic.url));
      }
    },
    { root: list },
  );

  function thumbnail(entry: Shown & { state?: Freshness }, alt: string): HTMLElement {
    if (!drawable(entry)) {
      const text = entry.state === "gone" ? "gone" : entry.format.toUpperCase();
      return el("span", { className: "history-thumb none", textContent: text });
    }
    const img = Object.assign(el("img", { className: "history-thumb", alt }), { entry });
    thumbs.observe(img);
    return img;
  }

  async function select(shown: Shown & { state?: Freshness }, code: string, name: string, button: HTMLButtonElement) {
    selected = shown.file;
    for (const b of list.querySelectorAll("button")) b.removeAttribute("aria-current");
    button.setAttribute("aria-current", "true");
    load(code, name);
    state.showFigure(await asFigure(shown, baseName(shown.file).replace(/\.[^.]+$/, ""), code));
  }

  /** The kept versions of an entry's figure, newest first, each with its picture and Restore. */
  function versionList(entry: HistoryEntry): HTMLElement {
    const ul = el("ul", { className: "history-versions" });
    ul.setAttribute("aria-label", `Earlier versions of ${baseName(entry.file)}`);
    for (const v of entry.versions) {
      const when = fmtTime(v.created);
      const show = el("button", { type: "button", className: "history-version", title: `version ${v.version}, made ${when}` });
      show.dataset.file = v.file;
      show.dataset.version = String(v.version);
      show.append(thumbnail(v, `${baseName(entry.file)}, version ${v.version}`), el("small", `v${v.version}`));
      if (v.file === selected) show.setAttribute("aria-current", "true");
      show.addEventListener("click", () => void select(v, v.code ?? "", entry.name, show));
      const restore = el("button", { type: "button", className: "history-restore", textContent: "Restore" });
      restore.title = `Make version ${v.version} the current ${baseName(entry.file)} again (the current one is kept as a version)`;
      restore.addEventListener("click", () => void restoreVersion(entry, v));
      ul.append(el("li", {}, show, restore));
    }
    if (entry.version_count > entry.versions.length) {
      const more = entry.version_count - entry.versions.length;
      ul.append(el("li", { className: "note", textContent: `+${more} older (pdfagent versions ${entry.name})` }));
    }
    return ul;
  }

  async function restoreVersion(entry: HistoryEntry, v: HistoryVersion) {
    if (state.isRunning()) return;
    try {
      showMessage(await invoke<string>("history_restore", { file: entry.file, version: v.version }), "info");
    } catch (e) {
      showMessage(errorText(e));
    }
    await refreshSoon();
  }

  async function refresh() {
    let entries: HistoryEntry[];
    try {
      entries = await invoke<HistoryEntry[]>("history_list");
    } catch {
      entries = []; // no folder open yet
    }
    prune(entries);
    thumbs.disconnect();
    const items = entries.map((entry) => {
      const button = el("button", { type: "button", className: "history-entry" });
      button.dataset.file = entry.file;
      button.dataset.state = entry.state;
      const when = fmtTime(entry.created);
      const freshness = el("span", { className: `history-state ${entry.state}`, textContent: STATE_TEXT[entry.state] });
      if (entry.changed.length) freshness.title = `changed: ${entry.changed.join(", ")}`;
      const text = el(
        "span",
        { className: "history-text" },
        el("strong", baseName(entry.file)),
        el("small", `${when} · ${fmtBytes(entry.bytes)}`),
      );
      if (entry.version_count) text.append(el("small", { className: "history-count", textContent: `${entry.version_count} earlier version${entry.version_count === 1 ? "" : "s"}` }));
      button.append(thumbnail(entry, baseName(entry.file)), text, freshness);
      if (entry.file === selected) button.setAttribute("aria-current", "true");
      button.addEventListener("click", () => void select(entry, entry.code, entry.name, button));
      const li = el("li", {}, button);
      if (entry.versions.length) li.append(versionList(entry));
      return li;
    });
    list.replaceChildren(...items);
    if (!entries.length) list.append(el("li", { className: "note", textContent: "No figures made for this folder yet." }));
    const stale = entries.filter((e) => e.state === "stale").length;
    rerun.disabled = rerunning || stale === 0;
    rerun.textContent = stale ? `Re-run stale (${stale})` : "Re-run stale";
  }

  // One listing at a time; a change while one is under way asks for one more after it.
  let busy: Promise<void> | null = null;
  let again = false;
  function refreshSoon(): Promise<void> {
    if (busy) {
      again = true;
      return busy;
    }
    busy = (async () => {
      do {
        again = false;
        await refresh();
      } while (again);
      busy = null;
    })();
    return busy;
  }

  state.on("folder", () => {
    selected = null;
    void refreshSoon();
  });
  state.on("gallery", () => void refreshSoon());
  // The data folder changed on disk (the app watches it): judge every entry again.
  await listen<DataChanged>("data-changed", () => void refreshSoon());

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
      // The redrawn figures join this session's gallery (they are in the history already).
      for (const run of s.runs) await addRun(run.figures, run.code, "history");
      if (s.updated) showRestart(s.updated);
      else if (s.failed.length) showMessage(`Re-run failed for ${s.failed.join(", ")}: select one to see its code and run it.`);
    } catch (e) {
      progress.textContent = "";
      showMessage(errorText(e));
    } finally {
      rerunning = false;
      cancel.hidden = true;
      state.setRunning(false);
      await refreshSoon();
    }
  });
  cancel.addEventListener("click", () => void invoke("cancel_run"));

  await refreshSoon();
}
