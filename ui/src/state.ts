// What the rooms share, in one place: the app's settings view, whether a run is in
// progress, the check's verdict on the editor's text, and the figures of this session with
// the one shown. A room changes it through the setters here and hears about changes it
// cares about with `on(topic, …)`; no room reaches into another room's elements.

import type { FigureFormat, StateView } from "./bindings";

/** One figure of this session, as the window keeps it. */
export interface GalleryItem {
  name: string;
  path: string;
  bytes: number;
  format: FigureFormat;
  when: Date;
  url: string;
  blob: Blob;
  /** The code that made it, re-run for a vector export. */
  code: string;
  /** What the figure report says to check (empty when nothing). */
  warnings: string[];
  /** The figures of the same run, in order (this one among them). */
  run: GalleryItem[];
}

/** The check's verdict on `text`: `ok` null while there is nothing to check. */
export interface Verdict {
  ok: boolean | null;
  text: string;
}

type Topic =
  | "settings" // the settings view changed (folder, figures folder, limits)
  | "folder" // a data folder was chosen
  | "running" // a run started or ended
  | "verdict" // the check judged the code
  | "edit" // the code changed (not yet judged)
  | "gallery" // figures were added to the session
  | "current"; // another figure is shown

const listeners = new Map<Topic, (() => void)[]>();

export function on(topic: Topic, listener: () => void) {
  listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
}

function emit(topic: Topic) {
  for (const listener of listeners.get(topic) ?? []) listener();
}

let view: StateView | null = null;
let running = false;
let verdict: Verdict = { ok: null, text: "" };
const gallery: GalleryItem[] = [];
let current: GalleryItem | null = null;

export function settings(): StateView {
  if (!view) throw new Error("the app state is not loaded yet");
  return view;
}

/** A new view from the app; `folderChosen` when it came from choosing a data folder. */
export function setSettings(next: StateView, folderChosen = false) {
  view = next;
  emit("settings");
  if (folderChosen) emit("folder");
}

/** The editor's text changed; its verdict comes later. */
export const codeEdited = () => emit("edit");

export const isRunning = () => running;

export function setRunning(on: boolean) {
  running = on;
  emit("running");
}

export const checkVerdict = (): Verdict => verdict;

export function setVerdict(next: Verdict) {
  verdict = next;
  emit("verdict");
}

export const galleryItems = (): readonly GalleryItem[] => gallery;

/** A run's figures, newest first; a file made again replaces its older entry. */
export function addToGallery(run: GalleryItem[]) {
  for (const item of [...run].reverse()) {
    const old = gallery.findIndex((g) => g.path === item.path);
    if (old >= 0) gallery.splice(old, 1);
    gallery.unshift(item);
  }
  emit("gallery");
}

export const currentFigure = () => current;

export function showFigure(item: GalleryItem) {
  current = item;
  emit("current");
}
