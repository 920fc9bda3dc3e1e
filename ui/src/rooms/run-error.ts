// The error box: a failed run told to the person at the window. The engine's structured
// failure (`FigureResult.failure`: the exception and the traceback as frames marked user,
// library or pdfagent) is shown as the line of their code that failed and the exception in
// plain words first; the libraries' and the worker's frames, and the code's output, are
// folded behind "Details". Agents get the same failure whole (MCP, command line): this is
// only how the window shows it. No path of the run's private directory is shown: it is
// gone when the run ends and means nothing to a person.

import type { FigureResult, RunFailure, TraceFrame } from "../bindings";
import { $, el } from "../dom";

/** What common exceptions mean, for a person who does not read Python's names. */
const PLAIN: Record<string, string> = {
  KeyError: "a key or column that is not there",
  IndexError: "an index past the end",
  NameError: "a name that is not defined",
  AttributeError: "something that has no such attribute or method",
  TypeError: "a value of the wrong type",
  ValueError: "a value that does not fit",
  FileNotFoundError: "a file that is not there",
  ZeroDivisionError: "a division by zero",
  SyntaxError: "code Python cannot read",
  ModuleNotFoundError: "a module that is not available",
  ImportError: "a module that is not available",
  MemoryError: "more memory than allowed",
  PermissionError: "something figure code may not do",
};

/** Paths into a run's private directory, on any system (`/tmp/pdfagent-run-x1/worker.py`). */
const RUN_DIR = /(?:[A-Za-z]:)?[^\s"'`]*[\\/]pdfagent-run-[^\s"'`\\/]*[\\/]?/g;

/** `text` without the run directory's paths (a file in it keeps its own name). */
export function withoutRunDir(text: string): string {
  return text.replace(RUN_DIR, "");
}

/** The engine's sentences are written for a model that retries: the window's person reads on. */
function forPeople(text: string): string {
  return withoutRunDir(text)
    .replace(/;?\s*read stderr_tail, fix the code and retry/g, "")
    .replace(/\(?see stderr_tail\)?/g, "see Details")
    .replace(/stderr_tail/g, "the output under Details");
}

export function clearRunError() {
  const box = $("run-error");
  box.replaceChildren();
  box.hidden = true;
}

/** Show the failure of `result` (not ok, not cancelled) in the error box. */
export function showRunError(result: FigureResult) {
  const box = $("run-error");
  const parts: Node[] = [];
  const details: Node[] = [];
  if (result.failure) {
    parts.push(...failureParts(result.failure));
    details.push(...frameList(result.failure.frames));
  } else if (result.errors.length > 0) {
    // Refused before running: by the check (each violation at its line) or the input rules.
    for (const v of result.errors) {
      parts.push(el("p", { className: "run-error-what" }, v.line > 0 ? `Line ${v.line}: ${v.message}` : v.message));
    }
    // An input error's hint is its message: each sentence once.
    if (result.hint && !result.errors.some((v) => v.message === result.hint)) {
      parts.push(el("p", { className: "run-error-fix" }, forPeople(result.hint)));
    }
  } else {
    parts.push(el("p", { className: "run-error-what" }, forPeople(result.hint ?? "The code failed.")));
  }
  const output = withoutRunDir(result.stderr_tail).trimEnd();
  if (output) details.push(el("p", { className: "note" }, "What the code printed (the end):"), el("pre", { className: "run-error-output" }, output));
  if (details.length) {
    const folded = el("details", { className: "run-error-details" }, el("summary", "Details"), ...details);
    parts.push(folded);
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

function failureParts(f: RunFailure): Node[] {
  const parts: Node[] = [];
  // The innermost frame of the code: the line that called into what failed.
  const own = [...f.frames].reverse().find((fr) => fr.kind === "user");
  if (own) {
    const where = own.function === "<module>" ? "" : ` (in ${own.function})`;
    const line = el("p", { className: "run-error-where" }, `Line ${own.line} of your code${where}:`);
    line.dataset.line = String(own.line);
    parts.push(line);
    if (own.source) parts.push(el("pre", { className: "run-error-line" }, own.source.trim()));
  } else {
    parts.push(el("p", { className: "run-error-where" }, "Your code ran, then something failed after it:"));
  }
  const plain = PLAIN[f.exception.split(".").pop() ?? f.exception];
  const what = el("p", { className: "run-error-what" }, el("strong", f.exception));
  if (plain) what.append(` — ${plain}`);
  if (f.message) what.append(`: ${withoutRunDir(f.message)}`);
  parts.push(what);
  if (f.fix) parts.push(el("p", { className: "run-error-fix" }, `Try: ${withoutRunDir(f.fix)}`));
  if (f.about_files) {
    parts.push(
      el("p", { className: "note" }, 'Read a data file with load("name") or srcpath("name"); save the figure with plt.savefig(OUT).'),
    );
  }
  return parts;
}

/** Every frame, outermost first: the code's own with their line, the others by library. */
function frameList(frames: TraceFrame[]): Node[] {
  if (frames.length === 0) return [];
  const who = { user: "your code", library: "library", pdfagent: "PDFAgent" } as const;
  const items = frames.map((fr) => {
    const where = fr.kind === "user" ? `line ${fr.line}` : `${fr.file}, line ${fr.line}`;
    const li = el("li", {}, `${who[fr.kind]} · ${where} · ${fr.function}`);
    li.dataset.kind = fr.kind;
    if (fr.source) li.append(el("code", ` ${fr.source.trim()}`));
    return li;
  });
  return [el("p", { className: "note" }, "Where it happened (outermost first):"), el("ol", { className: "run-error-frames" }, ...items)];
}
