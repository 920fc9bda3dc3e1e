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

/**
 * A duration as a person reads it: milliseconds below a second (a warm run that ends in
 * tens of milliseconds read "0.0 s" before), else seconds with one decimal.
 */
export function fmtElapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A moment in the user's locale, the one time format of the window (the gallery, the
 * figure, the history): the time alone for today's, with the date otherwise. `when` is a
 * Date or an RFC 3339 text (the history's, in UTC).
 */
export function fmtTime(when: Date | string): string {
  const d = typeof when === "string" ? new Date(when) : when;
  if (Number.isNaN(d.getTime())) return String(when);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString() : d.toLocaleString();
}

/** A stopwatch shown in `label` every 100 ms; returns the function that stops it. */
export function stopwatch(label: HTMLElement): () => void {
  const started = performance.now();
  label.textContent = fmtElapsed(0);
  const tick = window.setInterval(() => {
    label.textContent = fmtElapsed(performance.now() - started);
  }, 100);
  return () => window.clearInterval(tick);
}

/** Say on `button` itself that its action worked ("Copied"), for 1.5 s. */
export function confirmOn(button: HTMLElement, text: string) {
  const label = button.dataset.label ?? button.textContent ?? "";
  button.dataset.label = label;
  button.textContent = text;
  button.classList.add("confirmed");
  window.clearTimeout(Number(button.dataset.confirmTimer ?? 0));
  button.dataset.confirmTimer = String(
    window.setTimeout(() => {
      button.textContent = label;
      button.classList.remove("confirmed");
    }, 1500),
  );
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
