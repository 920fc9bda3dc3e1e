// The Gallery room: the figures of this session (newest first; selecting one shows it): the
// ones Run made and the ones "Re-run stale" redrew. The folder's history (across launches)
// is its own room, rooms/history.ts. Everything goes through the app's commands.

import { invoke } from "@tauri-apps/api/core";
import type { FigureFormat, SavedFigure } from "../bindings";
import { $, baseName, el, fmtBytes, fmtTime } from "../dom";
import * as state from "../state";
import type { GalleryItem } from "../state";

/** The type of each figure format's bytes, for its `blob:` URL. */
export const MIME: Record<FigureFormat, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

/** Mount the session's gallery. */
export function mountGallery() {
  state.on("gallery", renderGallery);
  state.on("current", markCurrent);
}

/**
 * Every figure of one run into the gallery (in order); the first is shown. Their bytes come
 * from the figures folder (`figures`: a Run just made them there), or, for figures "Re-run
 * stale" redrew where they were made, through the history (`history`).
 */
export async function addRun(figures: SavedFigure[], code: string, from: "figures" | "history" = "figures") {
  const when = new Date();
  const run: GalleryItem[] = [];
  for (const f of figures) {
    const data =
      from === "figures"
        ? await invoke<ArrayBuffer>("figure_bytes", { path: f.path })
        : await invoke<ArrayBuffer>("history_figure", { file: f.path });
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
        el("span", {}, el("strong", item.name), el("small", `${fmtBytes(item.bytes)} · ${fmtTime(item.when)}`)),
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
