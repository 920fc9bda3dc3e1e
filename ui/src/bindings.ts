// Generated from the Rust types by src-tauri/src/app/bindings.rs (ts-rs): do not edit.
// After changing a type: PDFAGENT_BLESS=1 cargo test -p pdfagent bindings

export type FigureResult = { ok: boolean, stage: Outcome, figure: string | null, bytes: number | null, 
/**
 * Every figure of the run, in order (empty unless `ok`).
 */
figures: Array<SavedFigure>, ms: number, errors: Array<Violation>, hint: string | null, stderr_tail: string, cancelled: boolean, 
/**
 * A run that failed in the code: its traceback as data and the fix (`null` otherwise;
 * `hint` holds the same as text).
 */
failure: RunFailure | null, 
/**
 * The version this run kept of the group it replaced (`null` when the name had no
 * figure, or nothing of it was replaced).
 */
replaced: KeptVersion | null, 
/**
 * What the run-time guard refused while the code ran (`worker/guard.py`), in order,
 * whether or not the code caught it: the rule and what was attempted. Each kept
 * figure's provenance record carries the same list. Empty when nothing was refused.
 */
guard: Array<GuardRefusal>, };

export type Outcome = "done" | "check" | "run" | "no-output" | "timeout" | "input" | "updated";

export type SavedFigure = { path: string, bytes: number, format: FigureFormat, captured: Captured, 
/**
 * The name the code saved it under (`captured: saved` only).
 */
saved_as?: string, 
/**
 * What the figure shows, from the live matplotlib objects (see `figure_report.py`):
 * the worker's JSON as it wrote it, whose shape is `FigureReport` (report.rs).
 */
report?: FigureReport, 
/**
 * The report as text, for a model to read.
 */
report_text?: string, 
/**
 * What the provenance record embedded in the file holds (absent: none was embedded).
 */
provenance?: ProvenanceSummary, };

export type FigureFormat = "png" | "svg" | "pdf" | "jpg";

export type Captured = "out" | "saved" | "shown";

export type ProvenanceSummary = { 
/**
 * The data files, relative to the data folder.
 */
inputs: Array<string>, inputs_partial: boolean, code_sha256: string, 
/**
 * Bytes the record added to the file.
 */
embedded_bytes: number, 
/**
 * How many attempts the run-time guard refused (the record lists them).
 */
guard_refusals: number, };

export type KeptVersion = { version: number, 
/**
 * The version's main file (`.pdfagent-versions/NAME/3/NAME.png`).
 */
path: string, 
/**
 * Every file of the group, the main file first.
 */
files: Array<string>, };

export type VersionInfo = { name: string, version: number, 
/**
 * When the run that made it was submitted (RFC 3339, UTC).
 */
submitted: string, 
/**
 * When it stopped being the current figure (RFC 3339, UTC).
 */
kept: string, 
/**
 * The main file (`NAME.png`, else `.svg`, `.pdf`, `.jpg`; else the first file).
 */
path: string, 
/**
 * Every file of the group, the main file first.
 */
files: Array<VersionFile>, 
/**
 * All files together.
 */
bytes: number, 
/**
 * From the main file's embedded provenance record, when it has one.
 */
code_sha256?: string, 
/**
 * When the figure was made, from the record.
 */
created?: string, 
/**
 * The data files the record names, relative to the data folder.
 */
inputs: Array<string>, };

export type VersionFile = { 
/**
 * Its name in the figures folder when it was current (`fig-2.png`).
 */
file: string, 
/**
 * Where it is kept now.
 */
path: string, bytes: number, };

export type Restored = { 
/**
 * The version now current again (it stays in the store too).
 */
restored: VersionInfo, 
/**
 * The group it replaced, kept as a version (`None`: the name had no current figure).
 */
replaced: KeptVersion | null, 
/**
 * The files of the name's current group now.
 */
files: Array<string>, };

export type StoreSize = { names: number, versions: number, 
/**
 * Bytes on disk: a file shared with the current group by a hard link counts once.
 */
bytes: number, };

export type Pruned = { removed: Array<VersionInfo>, bytes: number, dry_run: boolean, };

export type Violation = { line: number, col: number, rule: ViolationRule, message: string, };

export type ViolationRule = RuleId | InputRule;

export type RuleId = "encoding" | "input-too-large" | "nesting-too-deep" | "syntax-error" | "import-not-allowed" | "relative-import" | "star-import" | "blocked-submodule" | "blocked-name" | "forbidden-builtin" | "dunder-name" | "private-attribute" | "blocked-attribute" | "foreign-module" | "dangerous-api" | "dangerous-keyword" | "dangerous-rcparam" | "url-reader" | "format-string" | "class-construction" | "module-assignment" | "module-value" | "dataset-name";

export type InputRule = "bad-name" | "name-taken" | "src-not-a-folder" | "path-not-utf8" | "figures-folder" | "code-too-large" | "code-empty" | "bad-limit" | "code-unreadable" | "no-provenance";

export type GuardRefusal = { rule: string, what: string, };

export type RunFailure = { 
/**
 * The exception's type: `KeyError`, `FileNotFoundError`, `pandas.ParserError`, …
 */
exception: string, 
/**
 * The exception's own message, whole (host paths replaced: the data folder's files by
 * their relative names, the runtime's as `<runtime>`).
 */
message: string, 
/**
 * The frames, outermost first: the code's own whole, the rest one per call.
 */
frames: Array<TraceFrame>, 
/**
 * What to change, when the worker knows it: the available columns or keys closest
 * first, the data folder's nearest file names, the shapes by argument, the current name
 * of a removed API.
 */
fix: string | null, 
/**
 * Whether the failure is about reading data or saving figures (where a reminder of
 * how to do both is due).
 */
about_files: boolean, };

export type TraceFrame = { kind: FrameKind, 
/**
 * `<code>` for the code, the library's name (`pandas`, `matplotlib`) for a library,
 * `<pdfagent>` for the worker's own, `<runtime>` for the rest of the runtime.
 */
file: string, 
/**
 * The line in that file (the code's own numbering for `<code>`).
 */
line: number, 
/**
 * The function's qualified name (`DataFrame.__getitem__`; `<module>` at the top).
 */
function: string, 
/**
 * The source line, for the code's frames only.
 */
source: string | null, };

export type FrameKind = "user" | "library" | "pdfagent";

export type Stage = "checking" | "starting" | "running" | "saving";

export type StageEvent = { stage: Stage, };

export type FigureReport = { width_px: number, height_px: number, suptitle?: string, supxlabel?: string, supylabel?: string, 
/**
 * The data axes (colorbars are not axes here), at most 16.
 */
axes: Array<AxesReport>, 
/**
 * How many axes beyond the 16 listed.
 */
axes_omitted?: number, 
/**
 * Entries of a figure-level legend (at most 10).
 */
legend?: Array<string>, legend_total?: number, 
/**
 * Labels of colorbars that belong to no data axes.
 */
colorbar?: string, 
/**
 * Figure-level texts (`fig.text`), super-titles not counted.
 */
texts?: number, 
/**
 * What to fix, at most 12.
 */
warnings: Array<ReportWarning>, warnings_omitted?: number, };

export type AxesReport = { title?: string, title_left?: string, title_right?: string, xlabel?: string, ylabel?: string, zlabel?: string, 
/**
 * The projection when it is not rectilinear (`3d`, `polar`, …).
 */
kind?: string, 
/**
 * `off` when the axis is hidden.
 */
axis?: string, 
/**
 * Scales, only when not linear.
 */
xscale?: string, yscale?: string, zscale?: string, 
/**
 * View limits (only when the axis shows): two numbers (`null` when not finite), or two
 * ISO dates on a date axis.
 */
xlim?: Array<Limit | null>, ylim?: Array<Limit | null>, zlim?: Array<number | null>, artists?: ArtistCounts, 
/**
 * What it draws, one item per series, image or container (reference lines and spans
 * last), at most 8: counts and ranges, never the data.
 */
data?: Array<DataItem>, legend?: Array<string>, legend_total?: number, colorbar?: string, 
/**
 * Where it sits when there are several (`top right`, `row 2, column 3`, `inset`).
 */
position?: string, 
/**
 * The 1-based index of the axes a `twinx()`/`twiny()` axes was made from.
 */
twin_of?: number, };

export type Limit = number | string;

export type ArtistCounts = { lines?: number, scatter?: number, bars?: number, patches?: number, images?: number, 
/**
 * axhline, axvline, axline: not counted among `lines`.
 */
reference_lines?: number, 
/**
 * axhspan, axvspan: not counted among `patches`.
 */
spans?: number, contours?: number, surfaces?: number, meshes?: number, collections?: number, texts?: number, };

export type DataItem = { kind: DataKind, 
/**
 * The label a legend would show.
 */
label?: string, 
/**
 * How many artists of the kind this item stands for, when more than one.
 */
count?: number, 
/**
 * Points (lines, scatter), bars, segments, cells, steps, or contour levels.
 */
n?: number, 
/**
 * How many points or values are not finite (NaN, inf, masked).
 */
nan?: number, x?: Array<Limit | null>, y?: Array<Limit | null>, z?: Array<Limit | null>, 
/**
 * The array's shape (images, meshes).
 */
shape?: Array<number>, 
/**
 * The range of the values: mapped to colours (images, meshes, scatter), bar heights
 * (or widths of horizontal bars), step values, the data of contours.
 */
values?: Array<number | null>, cmap?: string, 
/**
 * `linear`, `log`, `symlog`, `twoslope`, `boundary`, … (the norm's class).
 */
norm?: string, 
/**
 * The colour scale's limits, when they differ from the values' range.
 */
clim?: Array<number | null>, 
/**
 * Marker sizes of a scatter whose sizes vary.
 */
sizes?: Array<number | null>, 
/**
 * The first and last contour level.
 */
levels?: Array<number | null>, 
/**
 * Which error bars an errorbar series has: `x`, `y` or `xy`.
 */
errors?: string, 
/**
 * A point an `axline` goes through, and its slope (absent when vertical or unknown).
 */
through?: Array<number | null>, slope?: number, };

export type DataKind = "line" | "errorbar" | "scatter" | "bars" | "image" | "mesh" | "contour" | "contourf" | "cells" | "fill" | "segments" | "stairs" | "surface" | "hline" | "vline" | "axline" | "hspan" | "vspan";

export type ReportWarning = { code: WarningCode, message: string, 
/**
 * The 1-based index of the axes it is about (absent: the whole figure).
 */
axes?: number, };

export type WarningCode = "empty-axes" | "no-data" | "outside-limits" | "log-nonpositive" | "many-series-no-legend" | "missing-labels" | "text-outside" | "blank";

export type StateView = { folder: string | null, figures: string, 
/**
 * Where figures go when Settings names no folder, in a sentence (Settings shows it).
 */
figures_default: string, timeout_s: number, memory_mb: number, memory_range_mb: [number, number], timeout_range_s: [number, number], version: string, running: boolean, 
/**
 * The MCP client configuration for this executable and folders (Settings shows it),
 * or why there is none yet.
 */
mcp_config: string, };

export type CheckView = { ok: boolean, errors: Array<Violation>, hint: string | null, };

export type FolderListing = { entries: Array<FolderEntry>, 
/**
 * Entries beyond [`MAX_ENTRIES`], counted but not listed (the contents of a folder
 * beyond it are not counted).
 */
left_out: number, 
/**
 * Folders at the last level ([`MAX_DEPTH`]) whose contents are not listed.
 */
not_entered: number, 
/**
 * Entries whose names start with `.`: not listed, still readable by name.
 */
hidden: number, };

export type FolderEntry = { 
/**
 * Relative to the data folder, `/`-separated: what `srcpath()`, `load()` and
 * `describe_data` take.
 */
path: string, name: string, 
/**
 * 0 for the entries of the listed folder itself.
 */
depth: number, dir: boolean, 
/**
 * A file's size (a linked file's: its target's); 0 for folders and refused entries.
 */
bytes: number, 
/**
 * A symbolic link that stays inside: where it leads, relative to the folder (`.` for
 * the folder itself).
 */
link_to: string | null, 
/**
 * Why it cannot be read; `None` when it can.
 */
refused: string | null, };

export type Inspection = { 
/**
 * What the file holds and how figure code reads it: MCP `describe_data`'s answer, shown
 * above the preview in the window.
 */
text: string, 
/**
 * The structured preview ([`Detail::Preview`]; `None` for [`Detail::Text`]).
 */
preview: Preview | null, };

export type Preview = { "kind": "table", 
/**
 * `comma`, `semicolon`, `tab` or `whitespace`; `None` for a spreadsheet.
 */
separator: string | null, 
/**
 * Whether the first row is the header (else the columns are numbered).
 */
header: boolean, columns: Array<string>, rows: Array<Array<string>>, 
/**
 * Every row, when the whole file was read.
 */
rows_total: number | null, } | { "kind": "variables", variables: Array<Variable>, } | { "kind": "array", shape: Array<number>, dtype: string, first: Array<string>, } | { "kind": "json", outline: OutlineNode, } | { "kind": "image", format: string, width: number, height: number, mode: string, } | { "kind": "none" };

export type Variable = { name: string, 
/**
 * MATLAB's shape for a .mat file (what `whos` shows); numpy's otherwise.
 */
shape: Array<number>, 
/**
 * The MATLAB class (`double`, `char`, `struct`, `cell`, ...); `None` outside .mat.
 */
class: string | null, 
/**
 * What its values are in `load()`: a numpy dtype, or `str`, `cell`, `struct`.
 */
dtype: string | null, };

export type OutlineNode = { key: string, 
/**
 * The Python type of the value (`dict`, `list`, `str`, `float`, ...).
 */
type: string, 
/**
 * Entries of a dict or list.
 */
len: number | null, 
/**
 * A scalar's value, shortened.
 */
value: string | null, children: Array<OutlineNode>, };

export type HistoryEntry = { file: string, name: string, format: FigureFormat, created: string, bytes: number, code: string, state: Freshness, 
/**
 * The data files that changed or are gone (stale only).
 */
changed: Array<string>, 
/**
 * The earlier versions of this figure kept in the figures folder's store, newest
 * first (at most [`MAX_VERSIONS_SHOWN`]); empty for an extra figure of a run (its
 * group's versions are under the run's main figure).
 */
versions: Array<HistoryVersion>, 
/**
 * How many versions the store keeps of it in all.
 */
version_count: number, };

export type HistoryVersion = { version: number, 
/**
 * Its main file in the store (what `history_figure` shows).
 */
file: string, format: FigureFormat, 
/**
 * The whole group's size.
 */
bytes: number, 
/**
 * When the figure was made (its record's time, else when its run was submitted).
 */
created: string, 
/**
 * When a later run (or a restore) replaced it.
 */
kept: string, 
/**
 * The code that made it, from the file's embedded record (`None`: no record).
 */
code: string | null, };

export type Freshness = "fresh" | "stale" | "gone" | "no-record" | "untrusted";

export type HistoryProgress = { done: number, total: number, file: string, ok: boolean | null, message: string | null, };

export type RerunSummary = { total: number, redrawn: number, failed: Array<string>, cancelled: boolean, 
/**
 * PDFAgent was updated while the window was open: what was not redrawn did not run, and
 * this sentence says to restart.
 */
updated: string | null, 
/**
 * Each run that redrew figures, in order: the session's gallery shows them.
 */
runs: Array<RedrawnRun>, };

export type RedrawnRun = { name: string, code: string, figures: Array<SavedFigure>, };

export type DataChanged = { paths: Array<string>, };

export type SelftestReport = { 
/**
 * True only when every check passed.
 */
ok: boolean, runtime: string | null, checks: Array<SelftestItem>, imports: Imports, savefig: Savefig | null, interpreter: InterpreterFacts | null, 
/**
 * The `libpython` this executable loaded (Linux: from `/proc/self/maps`). The worker
 * is the same file started with a cleared environment, so the loader resolves the same.
 */
libpython: string | null, 
/**
 * What the worker reported about its own confinement (`None` if it never said).
 */
confinement: ConfineReport | null, 
/**
 * PDFAgent was updated while the host ran: nothing was started (no check, no canary
 * ran), and this sentence says to restart (`install_identity`).
 */
updated: string | null, 
/**
 * The worker's exit, e.g. `exited 0`, `timed out`.
 */
worker_exit: string, stderr_tail: string, steps: Array<Step>, total_ms: number, };

export type SelftestItem = { name: string, ok: boolean, detail: string, };

export type Imports = { 
/**
 * How many allowlisted modules imported.
 */
ok: number, 
/**
 * How many the policy allows (N in "imports N/N").
 */
total: number, modules: Array<ImportResult>, };

export type ImportResult = { name: string, ok: boolean, error: string, ms: number, };

export type Savefig = { ok: boolean, 
/**
 * Size of the saved PNG as the parent found it (0 when missing).
 */
bytes: number, error: string, ms: number, };

export type InterpreterFacts = { version: string, prefix: string, prefix_inside_runtime: boolean, executable: string, isolated: number, ignore_environment: number, no_user_site: number, safe_path: boolean, utf8_mode: number, filesystem_encoding: string, path: Array<PathEntry>, };

export type PathEntry = { path: string, inside_runtime: boolean, };

export type ConfineReport = { 
/**
 * One line, e.g. "confinement: landlock ABI 7 (files, TCP, scopes), seccomp (...), rlimits
 * (...)" or "confinement: none — kernel without Landlock (...)".
 */
summary: string, 
/**
 * True only when every layer this OS offers took full effect.
 */
fully_enforced: boolean, 
/**
 * Each layer that took effect, one entry each.
 */
enforced: Array<string>, 
/**
 * Each layer this OS offers that did not take effect, and why.
 */
missing: Array<string>, };

export type Step = { name: string, ms: number, };
