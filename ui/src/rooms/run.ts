// The Run room: Run and Cancel, the stage and elapsed time of the run in progress, and the
// figure shown — with what its report says to check, the other figures of its run side by
// side, and what can be done with it (open, show in folder, copy, export, SVG/PDF again).

import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { FigureResult, StageEvent } from "../bindings";
import { $, confirmOn, el, errorText, fmtBytes, fmtElapsed, fmtTime, showMessage, showRestart, stopwatch } from "../dom";
import * as draft from "../draft";
import * as state from "../state";
import type { GalleryItem } from "../state";
import type { Editor } from "./editor";
import { addRun } from "./gallery";
import { clearRunError, showRunError, withoutRunDir } from "./run-error";

const STAGE_TEXT: Record<StageEvent["stage"], string> = {
  checking: "Checking the code…",
  starting: "Starting the confined worker…",
  running: "Running…",
  saving: "Saving the figure…",
};

export interface RunRoom {
  /** Run the editor's code (Run, Ctrl+Enter); ignored while Run is disabled. */
  run(): Promise<void>;
  /**
   * Continue from a figure of the history (its code is in the editor already), under its
   * name: a Run keeps the figure now under that name as a version (the figures folder's
   * store), so nothing is armed to be lost — and the sentence under the editor says so.
   */
  startFrom(name: string): Promise<void>;
}

export async function mountRun(editor: Editor): Promise<RunRoom> {
  const runButton = $<HTMLButtonElement>("run");
  const nameInput = $<HTMLInputElement>("fig-name");
  const stage = $("stage");
  nameInput.value = draft.savedName() ?? nameInput.value;

  function updateRunButton() {
    const verdict = state.checkVerdict();
    const { folder } = state.settings();
    const rejected = verdict.ok === false && verdict.text === editor.code();
    runButton.disabled = state.isRunning() || rejected || !folder || editor.code().trim() === "";
    runButton.title = rejected
      ? "The code is rejected by the check: fix the marked lines first"
      : !folder
        ? "Choose a data folder first"
        : "Run (Ctrl+Enter)";
    $<HTMLButtonElement>("cancel").disabled = !state.isRunning();
  }
  for (const topic of ["settings", "running", "verdict", "edit"] as const) state.on(topic, updateRunButton);
  updateRunButton();
  const checkName = watchName(nameInput);
  state.on("settings", () => void checkName());

  // The outcome on screen belongs to the code that made it: new code (typed, pasted, put
  // in from the history) takes it away, so no old error or "Done" stands over new code.
  function clearOutcome() {
    if (state.isRunning()) return;
    stage.textContent = "";
    stage.className = "stage";
    $("elapsed").textContent = "";
    clearRunError();
    if ($("messages").classList.contains("outcome")) showMessage("");
  }
  state.on("edit", clearOutcome);

  /** A note of the run's outcome under the editor (cleared with it). */
  function outcomeNote(text: string, kind: "error" | "info") {
    showMessage(text, kind);
    $("messages").classList.add("outcome");
  }

  async function run() {
    if (state.isRunning() || runButton.disabled) return;
    state.setRunning(true);
    showMessage("");
    clearRunError();
    stage.textContent = STAGE_TEXT.checking;
    stage.className = "stage busy";
    const stopTimer = stopwatch($("elapsed"));
    // As typed: the engine's rule decides (no trimming here that a run would not do).
    const name = nameInput.value;
    try {
      const code = editor.code();
      const result = await invoke<FigureResult>("run_figure", { name, code });
      stopTimer();
      // The run's own time, measured by the engine; nothing ran after a refusal.
      const ran = result.stage !== "check" && result.stage !== "input" && result.stage !== "updated";
      $("elapsed").textContent = ran ? fmtElapsed(result.ms) : "";
      if (result.ok && result.figures.length > 0) {
        const count = result.figures.length;
        stage.textContent = count === 1 ? `Done: ${result.figure}` : `Done: ${count} figures`;
        stage.className = "stage ok";
        await addRun(result.figures, code);
        nameInput.value = await invoke<string>("suggest_name", { name });
        void checkName();
        const kept = result.replaced ? `The previous ${name} is kept as version ${result.replaced.version} (History).` : "";
        const notes = [kept, result.hint ?? "", withoutRunDir(result.stderr_tail).trim()].filter((t) => t);
        if (notes.length) outcomeNote(notes.join("\n"), "info");
      } else if (result.stage === "updated") {
        // Nothing ran, and nothing is wrong with the code: the window must be restarted.
        stage.textContent = failureTitle(result);
        stage.className = "stage bad";
        showRestart(result.hint ?? "");
      } else if (result.cancelled) {
        stage.textContent = failureTitle(result);
        stage.className = "stage";
        outcomeNote("The run was cancelled; the worker was stopped.", "info");
      } else {
        stage.textContent = failureTitle(result);
        stage.className = "stage bad";
        showRunError(result);
      }
    } catch (e) {
      stopTimer();
      stage.textContent = "The run could not start";
      stage.className = "stage bad";
      outcomeNote(errorText(e), "error");
    } finally {
      state.setRunning(false);
    }
  }

  // Ctrl/Cmd+Enter runs from the name box too (Enter alone is left to the field).
  nameInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void run();
    }
  });
  await listen<StageEvent>("run-stage", (ev) => {
    if (state.isRunning()) stage.textContent = STAGE_TEXT[ev.payload.stage] ?? ev.payload.stage;
  });
  runButton.addEventListener("click", () => void run());
  $("cancel").addEventListener("click", () => {
    void invoke<boolean>("cancel_run").then(() => {
      stage.textContent = "Cancelling…";
    });
  });
  mountFigure();
  return {
    run,
    async startFrom(name) {
      nameInput.value = name;
      void checkName();
      showMessage(
        `The code of ${name} is in the editor. Run makes a new version of ${name}: the figure now under that name is kept as an earlier version (History), never replaced.`,
        "info",
      );
    },
  };
}

/**
 * Ask the engine, as the user types, whether the name field holds a figure name (the one
 * rule, in Rust: `validate_name`), and say why not under the editor. Returns a re-check.
 */
function watchName(input: HTMLInputElement): () => Promise<void> {
  const verdict = $("name-state");
  let asked = 0;
  // Called whenever the name changes (typed, suggested, taken from the history): kept then.
  async function check() {
    draft.saveName(input.value);
    const mine = ++asked;
    let problem = "";
    try {
      await invoke<string>("validate_name", { name: input.value });
    } catch (e) {
      problem = errorText(e);
    }
    if (mine !== asked) return; // a newer keystroke's answer wins
    verdict.textContent = problem;
    verdict.hidden = problem === "";
    input.setAttribute("aria-invalid", String(problem !== ""));
  }
  input.addEventListener("input", () => void check());
  void check();
  return check;
}

function failureTitle(r: FigureResult): string {
  if (r.cancelled) return "Cancelled";
  switch (r.stage) {
    case "check":
      return "Rejected by the check";
    case "timeout":
      return "Stopped: time limit";
    case "no-output":
      return "No figure was saved";
    case "input":
      return "Bad input";
    case "updated":
      return "Restart PDFAgent";
    default:
      return "The code failed";
  }
}

// ---- the figure shown ------------------------------------------------------------------

function mountFigure() {
  state.on("current", () => {
    const item = state.currentFigure();
    if (item) showFigure(item);
  });
  const action = (id: string, what: FigureAction) => $(id).addEventListener("click", () => void figureAction(what));
  action("open-figure", "open");
  action("reveal-figure", "reveal");
  action("copy-figure", "copy");
  action("export-png", "export");
  $("export-svg").addEventListener("click", () => void exportVector("svg"));
  $("export-pdf").addEventListener("click", () => void exportVector("pdf"));
}

function showFigure(item: GalleryItem) {
  const img = $<HTMLImageElement>("figure-img");
  // A PDF is not an image the window can draw: it is named, and Open shows it.
  const drawable = item.format !== "pdf";
  img.src = drawable ? item.url : "";
  img.alt = `Figure ${item.name}`;
  img.hidden = !drawable;
  $("figure-empty").hidden = drawable;
  $("figure-empty").textContent = drawable ? "Run the code to make a figure." : `${item.name}.pdf was saved: press Open to view it.`;
  $("figure-actions").hidden = false;
  $("figure-info").textContent = `${item.name}.${item.format} · ${fmtBytes(item.bytes)} · ${fmtTime(item.when)}`;
  $("figure-info").title = item.path;
  const warnings = $("figure-warnings");
  warnings.replaceChildren(...item.warnings.map((w) => el("li", w)));
  warnings.hidden = item.warnings.length === 0;
  renderRunStrip(item);
}

/** The figures of the shown figure's run, side by side (only when there are several). */
function renderRunStrip(item: GalleryItem) {
  const strip = $("run-figures");
  strip.hidden = item.run.length < 2;
  strip.replaceChildren(
    ...item.run.map((other) => {
      const b = el("button", { type: "button", title: other.path });
      b.dataset.path = other.path;
      b.setAttribute("aria-current", String(other.path === item.path));
      b.append(el("img", { src: other.format === "pdf" ? "" : other.url, alt: `${other.name}.${other.format}` }));
      b.addEventListener("click", () => state.showFigure(other));
      return el("li", {}, b);
    }),
  );
}

type FigureAction = "open" | "reveal" | "copy" | "export";

async function figureAction(action: FigureAction) {
  const current = state.currentFigure();
  if (!current) return;
  try {
    if (action === "export") {
      const dest = await invoke<string | null>("export_figure", { path: current.path });
      if (dest) showMessage(`Saved a copy to ${dest}`, "info");
    } else if (action === "copy") {
      await navigator.clipboard.write([new ClipboardItem({ "image/png": current.blob })]);
      confirmOn($("copy-figure"), "Copied");
    } else {
      await invoke("show_figure", { path: current.path, reveal: action === "reveal" });
    }
  } catch (e) {
    if (action === "copy") showMessage(`Could not copy the figure: ${errorText(e)}`);
    else if (action === "open") {
      // No viewer could be started: the folder may still be shown, and the sentence names it.
      showMessage(`Could not open ${current.name}.${current.format}: ${errorText(e)} `);
      const reveal = el("button", { type: "button", className: "inline", textContent: "Show in folder" });
      reveal.addEventListener("click", () => void figureAction("reveal"));
      $("messages").append(reveal);
    } else showMessage(errorText(e));
  }
}

/** Re-run the current figure's code as SVG or PDF; the file lands next to its PNG. */
async function exportVector(format: "svg" | "pdf") {
  const item = state.currentFigure();
  if (!item || state.isRunning()) return;
  state.setRunning(true);
  showMessage(`Making ${item.name}.${format}…`, "info");
  try {
    const result = await invoke<FigureResult>("run_figure", { name: item.name, code: item.code, format });
    if (result.ok && result.figure) {
      showMessage(`Saved ${result.figure}`, "info");
    } else if (result.stage === "updated") {
      showRestart(result.hint ?? "");
    } else {
      showMessage(`The ${format.toUpperCase()} export failed: ${failureTitle(result)}${result.hint ? `\n${result.hint}` : ""}`);
    }
  } catch (e) {
    showMessage(errorText(e));
  } finally {
    state.setRunning(false);
  }
}
