// The few DOM helpers every room uses. Text from the app (file contents, reports, paths) is
// always inserted as text, never as HTML.

/** The element with `id`; a missing one is a bug in index.html, reported at once. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as T;
}

/**
 * A new element with `props` set (`className`, `type`, `textContent`, …; a string is its
 * text) and `children` appended.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> | string = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (typeof props === "object") Object.assign(e, props);
  else e.textContent = String(props);
  if (children.length) e.append(...children);
  return e;
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** What a rejected `invoke` (a sentence from the app) or a thrown error says. */
export function errorText(e: unknown): string {
  return typeof e === "string" ? e : e instanceof Error ? e.message : JSON.stringify(e);
}

/** The last component of a path, either separator. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** A stopwatch shown in `label` every 100 ms; returns the function that stops it. */
export function stopwatch(label: HTMLElement): () => void {
  const started = performance.now();
  label.textContent = "0.0 s";
  const tick = window.setInterval(() => {
    label.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 100);
  return () => window.clearInterval(tick);
}

/** The message line under the editor (errors, hints, notes); empty text hides it. */
export function showMessage(text: string, kind: "error" | "info" = "error") {
  const box = $("messages");
  box.textContent = text;
  box.className = `messages ${kind}`;
  box.hidden = text === "";
}

/**
 * PDFAgent was updated while the window was open: no worker can start until it is restarted.
 * The app's sentence goes into the banner above the panes, where it stays.
 */
export function showRestart(sentence: string) {
  const banner = $("restart");
  banner.textContent = sentence;
  banner.hidden = false;
}
