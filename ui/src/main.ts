// The window's logic. Every call into the app goes through `invoke` to a command the
// capabilities grant; nothing here reads files itself or loads anything from the network.

import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import { type CheckView, createEditor } from "./editor";
import { renderPreview } from "./preview";
import { renderSelftest, type SelftestReport } from "./selftest";
import { mountHistory } from "./history";

interface StateView {
  folder: string | null;
  figures: string;
  timeout_s: number;
  memory_mb: number;
  memory_range_mb: [number, number];
  timeout_range_s: [number, number];
  version: string;
  running: boolean;
  mcp_config: string;
}

interface Entry {
  path: string;
  name: string;
  depth: number;
  dir: boolean;
  size: number;
}

interface Listing {
  root: string;
  entries: Entry[];
  truncated: boolean;
}

/** One figure of a run (`figures[i]` of the contract). */
interface SavedFigure {
  path: string;
  bytes: number;
  format: "png" | "svg" | "pdf" | "jpg";
  captured: "out" | "saved" | "shown";
  saved_as?: string;
  report?: { warnings?: { code: string; message: string }[] };
  report_text?: string;
}

interface FigureResult {
  ok: boolean;
  stage: "done" | "check" | "run" | "no-output" | "timeout" | "input";
  figure: string | null;
  bytes: number | null;
  figures: SavedFigure[];
  ms: number;
  errors: { line: number; col: number; rule: string; message: string }[];
  hint: string | null;
  stderr_tail: string;
}

interface GalleryItem {
  name: string;
  path: string;
  bytes: number;
  format: SavedFigure["format"];
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

const MIME: Record<SavedFigure["format"], string> = {
  png: "image/png",
  jpg: "image/jpeg",
  svg: "image/svg+xml",
  pdf: "application/pdf",
};

// Content-Security-Policy refusals are counted where the end-to-end suite can see them: the
// window must work entirely within its policy.
const cspViolations: string[] = [];
document.addEventListener("securitypolicyviolation", (e) => {
  cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`);
  document.documentElement.dataset.cspViolations = JSON.stringify(cspViolations);
  console.warn("CSP refused:", e.effectiveDirective, e.blockedURI);
});

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
};

const STARTER = `# Read data with srcpath("file"); save the figure to OUT.
# np, plt and loadmat are already imported.
spectrum = np.load(srcpath("spectrum.npy"))
plt.plot(spectrum[0], spectrum[1])
plt.xlabel("wavelength (nm)")
plt.ylabel("counts")
plt.savefig(OUT)
`;

const STAGE_TEXT: Record<string, string> = {
  checking: "Checking the code…",
  starting: "Starting the confined worker…",
  running: "Running…",
  saving: "Saving the figure…",
};

let state: StateView;
let checkOk: boolean | null = null;
let checkedText = "";
let running = false;
const gallery: GalleryItem[] = [];
let current: GalleryItem | null = null;
let history: { refresh(): Promise<void> } | null = null;

function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function errorText(e: unknown): string {
  return typeof e === "string" ? e : e instanceof Error ? e.message : JSON.stringify(e);
}

function showMessage(text: string, kind: "error" | "info" = "error") {
  const box = $("messages");
  box.textContent = text;
  box.className = `messages ${kind}`;
  box.hidden = text === "";
}

// ---- data folder and file tree ---------------------------------------------------------

function showFolder() {
  const label = $("folder-path");
  label.textContent = state.folder ?? "No data folder chosen";
  label.title = state.folder ?? "";
}

async function loadTree() {
  const tree = $("tree");
  const note = $("tree-note");
  tree.replaceChildren();
  note.textContent = "";
  if (!state.folder) {
    note.textContent = "Choose the folder that holds your data.";
    return;
  }
  let listing: Listing;
  try {
    listing = await invoke<Listing>("list_folder");
  } catch (e) {
    note.textContent = errorText(e);
    return;
  }
  for (const entry of listing.entries) {
    const li = document.createElement("li");
    li.setAttribute("role", "none");
    const button = document.createElement("button");
    button.type = "button";
    button.className = entry.dir ? "tree-item dir" : "tree-item file";
    button.setAttribute("role", "treeitem");
    button.dataset.path = entry.path;
    button.style.paddingLeft = `${0.5 + entry.depth * 1.1}rem`;
    button.textContent = entry.dir ? `▸ ${entry.name}` : entry.name;
    if (!entry.dir) {
      const size = document.createElement("span");
      size.className = "size";
      size.textContent = fmtBytes(entry.size);
      button.append(size);
      button.addEventListener("click", () => selectFile(entry, button));
    } else {
      button.disabled = false;
      button.setAttribute("aria-expanded", "true");
    }
    li.append(button);
    tree.append(li);
  }
  if (listing.entries.length === 0) note.textContent = "The folder is empty.";
  if (listing.truncated) note.textContent = "Some deep or numerous entries are not listed.";
}

let previewSeq = 0;
async function selectFile(entry: Entry, button: HTMLElement) {
  for (const el of document.querySelectorAll(".tree-item[aria-selected]")) el.removeAttribute("aria-selected");
  button.setAttribute("aria-selected", "true");
  const seq = ++previewSeq;
  const pane = $("preview");
  pane.replaceChildren(Object.assign(document.createElement("p"), { className: "note", textContent: `Reading ${entry.name}…` }));
  try {
    const preview = await invoke<Record<string, unknown>>("preview_file", { path: entry.path });
    if (seq !== previewSeq) return;
    let imageUrl: string | null = null;
    if (preview.kind === "image") {
      const bytes = await invoke<ArrayBuffer>("image_bytes", { path: entry.path });
      imageUrl = URL.createObjectURL(new Blob([bytes]));
    }
    if (seq !== previewSeq) return;
    renderPreview(pane, entry.name, preview, imageUrl);
  } catch (e) {
    if (seq !== previewSeq) return;
    pane.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: errorText(e) }));
  }
}

async function chooseFolder() {
  const picked = await openDialog({ directory: true, multiple: false, defaultPath: state.folder ?? undefined });
  if (typeof picked !== "string") return;
  try {
    state = await invoke<StateView>("choose_folder", { path: picked });
  } catch (e) {
    showMessage(errorText(e));
    return;
  }
  showFolder();
  $("preview").replaceChildren(Object.assign(document.createElement("p"), { className: "note", textContent: "Select a file to preview it." }));
  await loadTree();
  updateRunButton();
  void history?.refresh();
}

// ---- editor, check and run -------------------------------------------------------------

function updateRunButton() {
  const run = $<HTMLButtonElement>("run");
  const rejected = checkOk === false && checkedText === editor.code();
  run.disabled = running || rejected || !state.folder || editor.code().trim() === "";
  run.title = rejected
    ? "The code is rejected by the check: fix the marked lines first"
    : !state.folder
      ? "Choose a data folder first"
      : "Run (Ctrl+Enter)";
  $<HTMLButtonElement>("cancel").disabled = !running;
}

function onChecked(result: CheckView | null) {
  const label = $("check-state");
  checkedText = editor.code();
  if (result === null) {
    checkOk = null;
    label.textContent = "";
    label.className = "check";
  } else if (result.ok) {
    checkOk = true;
    label.textContent = "✓ Check passed";
    label.className = "check ok";
    if (!running && $("messages").classList.contains("check-hint")) showMessage("");
  } else {
    checkOk = false;
    const n = result.errors.length;
    label.textContent = `✗ ${n} problem${n === 1 ? "" : "s"}: not allowed to run`;
    label.className = "check bad";
    if (!running) {
      showMessage(result.hint ?? "");
      $("messages").classList.add("check-hint");
    }
  }
  updateRunButton();
}

const editor = createEditor(
  $("editor"),
  STARTER,
  (code) => invoke<CheckView>("check_code", { code }),
  onChecked,
  () => void runFigure(),
  () => {
    // Until the new text is checked the old verdict is stale: leave Run as it was.
    updateRunButton();
  },
);

let timer: number | undefined;
function startTimer() {
  const started = performance.now();
  const el = $("elapsed");
  el.textContent = "0.0 s";
  timer = window.setInterval(() => {
    el.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 100);
}
function stopTimer() {
  window.clearInterval(timer);
}

function nextName(name: string): string {
  const m = /^(.*?)(\d+)$/.exec(name);
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${name}-2`;
}

async function runFigure() {
  const runButton = $<HTMLButtonElement>("run");
  if (running || runButton.disabled) return;
  running = true;
  showMessage("");
  $("stage").textContent = STAGE_TEXT.checking;
  $("stage").className = "stage busy";
  updateRunButton();
  startTimer();
  const nameInput = $<HTMLInputElement>("fig-name");
  const name = nameInput.value.trim();
  try {
    const code = editor.code();
    const result = await invoke<FigureResult>("run_figure", { name, code });
    stopTimer();
    $("elapsed").textContent = `${(result.ms / 1000).toFixed(1)} s`;
    if (result.ok && result.figures.length > 0) {
      const count = result.figures.length;
      $("stage").textContent = count === 1 ? `Done: ${result.figure}` : `Done: ${count} figures`;
      $("stage").className = "stage ok";
      await addRun(result.figures, code);
      void history?.refresh();
      nameInput.value = nextName(name);
      const notes = [result.hint ?? "", result.stderr_tail.trim()].filter((t) => t);
      if (notes.length) showMessage(notes.join("\n"), "info");
    } else {
      $("stage").textContent = failureTitle(result);
      $("stage").className = "stage bad";
      if (result.hint === "the run was cancelled") {
        $("stage").className = "stage";
        showMessage("The run was cancelled; the worker was stopped.", "info");
        return;
      }
      const lines: string[] = [];
      for (const e of result.errors) lines.push(e.line > 0 ? `line ${e.line}:${e.col} [${e.rule}] ${e.message}` : e.message);
      if (result.hint) lines.push(result.hint);
      if (result.stderr_tail.trim()) lines.push("--- stderr (tail) ---", result.stderr_tail.trimEnd());
      showMessage(lines.join("\n"));
    }
  } catch (e) {
    stopTimer();
    $("stage").textContent = "The run could not start";
    $("stage").className = "stage bad";
    showMessage(errorText(e));
  } finally {
    running = false;
    updateRunButton();
  }
}

function failureTitle(r: FigureResult): string {
  switch (r.stage) {
    case "check":
      return "Rejected by the check";
    case "timeout":
      return "Stopped: time limit";
    case "no-output":
      return "No figure was saved";
    case "input":
      return "Bad input";
    default:
      return r.hint === "the run was cancelled" ? "Cancelled" : "The code failed";
  }
}

async function cancelRun() {
  await invoke<boolean>("cancel_run");
  $("stage").textContent = "Cancelling…";
}

// ---- figures ---------------------------------------------------------------------------

/** Every figure of one run into the gallery (in order); the first is shown. */
async function addRun(figures: SavedFigure[], code: string) {
  const when = new Date();
  const run: GalleryItem[] = [];
  for (const f of figures) {
    const data = await invoke<ArrayBuffer>("figure_bytes", { path: f.path });
    const blob = new Blob([data], { type: MIME[f.format] });
    const file = f.path.split(/[\\/]/).pop() ?? f.path;
    const name = file.replace(/\.[^.]+$/, "");
    const warnings = (f.report?.warnings ?? []).map((w) => w.message);
    const item: GalleryItem = {
      name, path: f.path, bytes: f.bytes, format: f.format, when,
      url: URL.createObjectURL(blob), blob, code, warnings, run,
    };
    run.push(item);
  }
  // Re-running a name replaces its figures on disk; keep one gallery entry per file.
  for (const item of [...run].reverse()) {
    const old = gallery.findIndex((g) => g.path === item.path);
    if (old >= 0) gallery.splice(old, 1);
    gallery.unshift(item);
  }
  showFigure(run[0]);
  renderGallery();
}

function showFigure(item: GalleryItem) {
  current = item;
  const img = $<HTMLImageElement>("figure-img");
  // A PDF is not an image the window can draw: it is named, and Open shows it.
  const drawable = item.format !== "pdf";
  img.src = drawable ? item.url : "";
  img.alt = `Figure ${item.name}`;
  img.hidden = !drawable;
  $("figure-empty").hidden = drawable;
  $("figure-empty").textContent = drawable ? "Run the code to make a figure." : `${item.name}.pdf was saved: press Open to view it.`;
  $("figure-actions").hidden = false;
  $("figure-info").textContent = `${item.name}.${item.format} · ${fmtBytes(item.bytes)} · ${item.when.toLocaleTimeString()}`;
  $("figure-info").title = item.path;
  const warnings = $("figure-warnings");
  warnings.replaceChildren(
    ...item.warnings.map((w) => {
      const li = document.createElement("li");
      li.textContent = w;
      return li;
    }),
  );
  warnings.hidden = item.warnings.length === 0;
  renderRunStrip(item);
  for (const li of document.querySelectorAll("#gallery button")) {
    li.setAttribute("aria-current", String((li as HTMLElement).dataset.path === item.path));
  }
}

/** The figures of the shown figure's run, side by side (only when there are several). */
function renderRunStrip(item: GalleryItem) {
  const strip = $("run-figures");
  strip.replaceChildren();
  strip.hidden = item.run.length < 2;
  for (const other of item.run) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.path = other.path;
    b.title = other.path;
    b.setAttribute("aria-current", String(other.path === item.path));
    const thumb = document.createElement("img");
    thumb.src = other.format === "pdf" ? "" : other.url;
    thumb.alt = `${other.name}.${other.format}`;
    b.append(thumb);
    b.addEventListener("click", () => showFigure(other));
    li.append(b);
    strip.append(li);
  }
}

function renderGallery() {
  const list = $("gallery");
  list.replaceChildren();
  for (const item of gallery) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.path = item.path;
    b.title = item.path;
    const thumb = document.createElement("img");
    thumb.src = item.url;
    thumb.alt = "";
    const text = document.createElement("span");
    const n = document.createElement("strong");
    n.textContent = item.name;
    const meta = document.createElement("small");
    meta.textContent = `${fmtBytes(item.bytes)} · ${item.when.toLocaleTimeString()}`;
    text.append(n, meta);
    b.append(thumb, text);
    b.addEventListener("click", () => showFigure(item));
    b.setAttribute("aria-current", String(current?.path === item.path));
    li.append(b);
    list.append(li);
  }
}

async function figureAction(action: "open" | "reveal" | "copy" | "export") {
  if (!current) return;
  try {
    if (action === "export") {
      const dest = await invoke<string | null>("export_figure", { path: current.path });
      if (dest) showMessage(`Saved a copy to ${dest}`, "info");
    } else if (action === "copy") {
      await navigator.clipboard.write([new ClipboardItem({ "image/png": current.blob })]);
      showMessage("Copied the figure to the clipboard.", "info");
    } else {
      await invoke("show_figure", { path: current.path, reveal: action === "reveal" });
    }
  } catch (e) {
    showMessage(action === "copy" ? `Could not copy the figure: ${errorText(e)}` : errorText(e));
  }
}

/** Re-run the current figure's code as SVG or PDF; the file lands next to its PNG. */
async function exportVector(format: "svg" | "pdf") {
  if (!current || running) return;
  const item = current;
  running = true;
  updateRunButton();
  showMessage(`Making ${item.name}.${format}…`, "info");
  try {
    const result = await invoke<FigureResult>("run_figure", { name: item.name, code: item.code, format });
    if (result.ok && result.figure) {
      showMessage(`Saved ${result.figure}`, "info");
    } else {
      showMessage(`The ${format.toUpperCase()} export failed: ${failureTitle(result)}${result.hint ? `\n${result.hint}` : ""}`);
    }
  } catch (e) {
    showMessage(errorText(e));
  } finally {
    running = false;
    updateRunButton();
  }
}

// ---- selftest --------------------------------------------------------------------------

async function runSelftest() {
  const dialog = $<HTMLDialogElement>("selftest-dialog");
  const report = $("selftest-report");
  const progress = $("selftest-progress");
  const button = $<HTMLButtonElement>("selftest");
  report.replaceChildren();
  progress.hidden = false;
  button.disabled = true;
  dialog.showModal();
  const started = performance.now();
  const elapsed = $("selftest-elapsed");
  const tick = window.setInterval(() => {
    elapsed.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 100);
  try {
    const result = await invoke<SelftestReport>("run_selftest");
    renderSelftest(report, result);
  } catch (e) {
    report.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: errorText(e) }));
  } finally {
    window.clearInterval(tick);
    progress.hidden = true;
    button.disabled = false;
  }
}

// ---- settings --------------------------------------------------------------------------

function openSettings() {
  $<HTMLInputElement>("set-figures").value = state.figures;
  $<HTMLInputElement>("set-timeout").value = String(state.timeout_s);
  const mem = $<HTMLInputElement>("set-memory");
  mem.value = String(state.memory_mb);
  mem.min = String(state.memory_range_mb[0]);
  mem.max = String(state.memory_range_mb[1]);
  $("settings-error").hidden = true;
  $("mcp-snippet").textContent = state.mcp_config;
  $<HTMLDialogElement>("settings-dialog").showModal();
}

async function saveSettings(ev: Event) {
  ev.preventDefault();
  try {
    state = await invoke<StateView>("save_settings", {
      figures: $<HTMLInputElement>("set-figures").value,
      timeoutS: Number($<HTMLInputElement>("set-timeout").value),
      memoryMb: Number($<HTMLInputElement>("set-memory").value),
    });
    $<HTMLDialogElement>("settings-dialog").close();
  } catch (e) {
    const err = $("settings-error");
    err.textContent = errorText(e);
    err.hidden = false;
  }
}

// ---- start -----------------------------------------------------------------------------

async function start() {
  state = await invoke<StateView>("app_state");
  showFolder();
  await loadTree();
  updateRunButton();
  await listen<{ stage: string }>("run-stage", (ev) => {
    if (running) $("stage").textContent = STAGE_TEXT[ev.payload.stage] ?? ev.payload.stage;
  });
  $("choose-folder").addEventListener("click", () => void chooseFolder());
  $("run").addEventListener("click", () => void runFigure());
  $("cancel").addEventListener("click", () => void cancelRun());
  $("selftest").addEventListener("click", () => void runSelftest());
  $("settings").addEventListener("click", openSettings);
  $("mcp-copy").addEventListener("click", () => {
    navigator.clipboard
      .writeText(state.mcp_config)
      .then(() => showMessage("Copied the MCP configuration to the clipboard.", "info"))
      .catch((e) => showMessage(`Could not copy: ${errorText(e)}`));
  });
  $("settings-form").addEventListener("submit", (ev) => void saveSettings(ev));
  $("settings-cancel").addEventListener("click", () => $<HTMLDialogElement>("settings-dialog").close());
  $("set-figures-choose").addEventListener("click", async () => {
    const picked = await openDialog({ directory: true, multiple: false });
    if (typeof picked === "string") $<HTMLInputElement>("set-figures").value = picked;
  });
  $("open-figure").addEventListener("click", () => void figureAction("open"));
  $("reveal-figure").addEventListener("click", () => void figureAction("reveal"));
  $("copy-figure").addEventListener("click", () => void figureAction("copy"));
  $("export-png").addEventListener("click", () => void figureAction("export"));
  $("export-svg").addEventListener("click", () => void exportVector("svg"));
  $("export-pdf").addEventListener("click", () => void exportVector("pdf"));
  history = await mountHistory($("history-panel"), {
    load(code, name) {
      editor.setCode(code);
      $<HTMLInputElement>("fig-name").value = name;
    },
    busy: () => running,
    running(on) {
      running = on;
      updateRunButton();
    },
    message: showMessage,
  });
  document.body.dataset.ready = "true";
}

start().catch((e) => showMessage(`The window could not start: ${errorText(e)}`));
