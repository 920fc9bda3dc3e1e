// End-to-end suite: the release `pdfagent` in the real webview (WebKitGTK through
// tauri-driver and WebKitWebDriver, under Xvfb). Started by `scripts/test-e2e`, which sets
// the environment read below. Each step saves a screenshot to target/e2e-screens/.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { spawn } from "node:child_process";
import path from "node:path";
import { Session, Keys, need, sleep } from "./webdriver.mjs";

const APP = need("PDFAGENT_APP");
const DATA = need("PDFAGENT_DATA");
const SCREENS = need("PDFAGENT_SCREENS");
const DRIVER = process.env.PDFAGENT_WEBDRIVER ?? "http://127.0.0.1:4444";

let s;

async function shot(name) {
  await sleep(500);
  const png = await s.screenshot();
  fs.writeFileSync(path.join(SCREENS, `${name}.png`), png);
  return png;
}

/** Replace the editor's text by typing it (Ctrl+A, then the lines with Enter between). */
async function typeCode(lines) {
  const content = await s.find(".cm-content");
  await s.click(content);
  await s.type(content, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE);
  await s.type(content, lines.join(Keys.ENTER));
  const text = await s.exec("return document.querySelector('.cm-content').innerText");
  assert.equal(text.replace(/\n+$/, ""), lines.join("\n"), "the editor holds exactly what was typed");
}

/**
 * pids of the app process and of its `pdfagent` children (the confined workers), with the
 * children of those (on Linux the fork server's: each figure runs in one).
 */
function processes() {
  const exe = fs.realpathSync(APP);
  const procs = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/exe`) !== exe) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(pid), state: fields[0], ppid: Number(fields[1]) });
    } catch {
      // gone meanwhile, or not ours
    }
  }
  const pids = new Set(procs.map((p) => p.pid));
  const app = procs.filter((p) => !pids.has(p.ppid));
  const appPids = new Set(app.map((p) => p.pid));
  const direct = procs.filter((p) => appPids.has(p.ppid));
  const directPids = new Set(direct.map((p) => p.pid));
  return { app, workers: [...direct, ...procs.filter((p) => directPids.has(p.ppid))] };
}

function parentOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/**
 * A worker's state from the markers in its run directory (see python-runtime/src/pipeline/
 * warm.rs and fork_server.rs): "idle" — a warm worker or fork server that has warmed up and
 * waits for code; "warming" — one still starting; "busy" — running code (a cold worker, a
 * warm one that took code, or a child of the fork server that took its figure); "spare" — a
 * child of the fork server forked ahead of the next figure, waiting for it.
 */
/** A worker's run directory: its HOME as the runner set it (its working directory is SRC). */
function runDirOf(pid) {
  const env = fs.readFileSync(`/proc/${pid}/environ`).toString("utf8").split("\0");
  const home = env.find((v) => v.startsWith("HOME="));
  // Between fork and exec a child still shows its parent's environment.
  if (!home || !env.some((v) => v.startsWith("PDFAGENT_PYRUN="))) throw new Error(`${pid} is no worker yet`);
  return home.slice(5);
}

/**
 * The run directory of a child of the fork server: where its stdout goes (its HOME is still
 * the server's, inherited through the fork).
 */
function childRunDirOf(pid) {
  return path.dirname(fs.readlinkSync(`/proc/${pid}/fd/1`));
}

function workerState(pid) {
  try {
    const dir = runDirOf(pid);
    const has = (name) => fs.existsSync(path.join(dir, name));
    if (has(".pdfagent-fork-server")) {
      const forked = isForkServer(parentOf(pid));
      if (forked) return fs.existsSync(path.join(childRunDirOf(pid), ".pdfagent-warm-taken")) ? "busy" : "spare";
      return has(".pdfagent-warm-ready") ? "idle" : "warming";
    }
    if (!has(".pdfagent-warm") || has(".pdfagent-warm-taken")) return "busy";
    return has(".pdfagent-warm-ready") ? "idle" : "warming";
  } catch {
    return "gone";
  }
}

/** Whether `pid` is a fork server (its run directory holds the server's marker). */
function isForkServer(pid) {
  try {
    return fs.existsSync(path.join(runDirOf(pid), ".pdfagent-fork-server"));
  } catch {
    return false;
  }
}

/** Live workers of the app by state. */
function workerStates() {
  const live = processes().workers.filter((p) => p.state !== "Z").map((p) => p.pid);
  const of = (state) => live.filter((pid) => workerState(pid) === state);
  return { idle: of("idle"), warming: of("warming"), busy: of("busy"), spare: of("spare") };
}

async function waitForIdleWarm(what, exclude = []) {
  const until = Date.now() + 60000;
  while (Date.now() < until) {
    const idle = workerStates().idle.filter((pid) => !exclude.includes(pid));
    if (idle.length) return idle;
    await sleep(100);
  }
  assert.fail(`no idle warm worker: ${what}`);
}

/** Every process under `root` (any program), from /proc. */
function descendants(root) {
  const children = new Map();
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(pid));
    } catch {}
  }
  const out = [];
  const stack = [root];
  while (stack.length) for (const c of children.get(stack.pop()) ?? []) out.push(c), stack.push(c);
  return out;
}

before(async () => {
  fs.mkdirSync(SCREENS, { recursive: true });
  s = await Session.start(DRIVER, {
    "tauri:options": { application: APP, args: ["--open", DATA] },
  });
  await s.waitFor("the window to start", "return document.body.dataset.ready === 'true'");
});

after(async () => {
  await s?.end().catch(() => {});
});

test("opens the example folder and lists its files", async () => {
  const folder = await s.exec("return document.getElementById('folder-path').textContent");
  assert.equal(folder, fs.realpathSync(DATA));
  const files = await s.waitFor(
    "the file tree",
    "const b = [...document.querySelectorAll('#tree .tree-item.file')]; return b.length && b.map(e => e.dataset.path)",
  );
  for (const f of ["bands.csv", "field_sweep.mat", "meta.json", "spectrum.npy", "v73.mat", "sheet.xlsx"]) {
    assert.ok(files.includes(f), `${f} is listed (got ${files})`);
  }
  await shot("01-folder");
  // Settings shows the MCP client configuration naming this executable and the folder.
  await s.click(await s.find("#settings"));
  const snippet = await s.waitFor("the MCP snippet", "return document.getElementById('mcp-snippet').textContent");
  const server = JSON.parse(snippet).mcpServers.pdfagent;
  assert.deepEqual(server.args.slice(0, 3), ["mcp", "--src", fs.realpathSync(DATA)]);
  assert.equal(server.command, fs.realpathSync(APP));
  await s.click(await s.find("#settings-cancel"));
});

test("a .mat preview shows its variables with shapes and dtypes", async () => {
  await s.click(await s.find('#tree [data-path="field_sweep.mat"]'));
  const vars = await s.waitFor(
    "the .mat preview",
    "const r = [...document.querySelectorAll('#preview tr[data-variable]')]; return r.length && r.map(e => e.innerText.split(/\\t|\\n/).map(x => x.trim()).filter(Boolean))",
    { timeout: 60000 },
  );
  const byName = Object.fromEntries(vars.map(([name, ...rest]) => [name, rest.join(" ")]));
  assert.deepEqual(Object.keys(byName).sort(), ["B_T", "Rxx_ohm", "T_K"]);
  assert.match(byName.Rxx_ohm, /\(3 × 181\).*float32/);
  assert.match(byName.B_T, /float64/);
  // Under the variables, the description an agent gets from describe_data.
  const text = await s.exec("return document.getElementById('preview-text').textContent");
  assert.match(text, /^field_sweep\.mat: \d+ bytes\nMATLAB v5 file; read with load\('field_sweep\.mat'\)/);
  await shot("02-mat-preview");
});

/** The description snapshot the MCP suite compares describe_data's text with. */
const description = (name) =>
  fs.readFileSync(new URL(`../fixtures/descriptions/${name}.txt`, import.meta.url), "utf8").replace(/\n$/, "");

/** Select `name` in the tree and wait for its preview's description. */
async function preview(name) {
  const selector = `#tree [data-path="${name}"]`;
  await s.exec(`document.querySelector(${JSON.stringify(selector)}).scrollIntoView({ block: "center" })`);
  await s.click(await s.find(selector));
  return s.waitFor(
    `the preview of ${name}`,
    `const t = document.getElementById('preview-text'); return t && document.querySelector('#preview .preview-name').textContent === ${JSON.stringify(name)} && t.textContent`,
    { timeout: 60000 },
  );
}

test("a v7.3 .mat previews its variables, described as MCP describes it", async () => {
  const text = await preview("v73.mat");
  assert.equal(text, description("v73.mat"), "the window's description is describe_data's");
  const vars = await s.exec(
    "return [...document.querySelectorAll('#preview tr[data-variable]')].map(e => e.innerText.split(/\\t|\\n/).map(x => x.trim()).filter(Boolean))",
  );
  const byName = Object.fromEntries(vars.map(([name, ...rest]) => [name, rest.join(" ")]));
  assert.deepEqual(Object.keys(byName).sort(), ["c", "flags", "label", "m", "s", "x", "z"]);
  assert.equal(byName.m, "(2 × 3) double float64");
  assert.equal(byName.label, "(1 × 11) char str");
  assert.equal(byName.z, "(1 × 2) double complex128");
  await shot("02b-v73-preview");
});

test("an .xlsx previews its first sheet as a table, described as MCP describes it", async () => {
  const text = await preview("sheet.xlsx");
  assert.equal(text, description("sheet.xlsx"), "the window's description is describe_data's");
  const rows = await s.exec(
    "return [...document.querySelectorAll('#preview .preview-table tr')].map(r => [...r.cells].map(c => c.textContent))",
  );
  assert.deepEqual(rows[0], ["x", "y"]);
  assert.deepEqual(rows[5], ["1.0", "1.0"]);
  assert.equal(rows.length, 6);
  assert.match(await s.exec("return document.querySelector('#preview .note').textContent"), /of 5 · spreadsheet · header row/);
  await shot("02c-xlsx-preview");
});

test("a link out of the folder is listed as refused and never previewed", async () => {
  await s.exec("document.querySelector('#tree [data-path=\"outside.csv\"]').scrollIntoView({ block: 'center' })");
  const item = await s.find('#tree [data-path="outside.csv"]');
  const info = await s.exec(
    "const b = document.querySelector('#tree [data-path=\"outside.csv\"]'); return [b.className, b.getAttribute('aria-disabled'), b.title]",
  );
  assert.match(info[0], /\brefused\b/);
  assert.equal(info[1], "true");
  assert.equal(info[2], "refused: points outside the data folder");
  const before = await s.exec("return document.getElementById('preview').textContent");
  await s.click(item);
  await sleep(1000);
  assert.equal(await s.exec("return document.getElementById('preview').textContent"), before, "clicking it did nothing");
  assert.equal(await s.exec("return document.querySelector('#tree [aria-selected]').dataset.path"), "sheet.xlsx");
});

test("a good script runs and its figure appears and exists on disk", async () => {
  await typeCode([
    'spectrum = np.load(srcpath("spectrum.npy"))',
    'plt.plot(spectrum[0], spectrum[1], color="tab:purple")',
    'plt.xlabel("wavelength (nm)")',
    'plt.ylabel("counts")',
    'plt.title("Spectrum")',
    "plt.savefig(OUT)",
  ]);
  await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
  assert.equal(await s.exec("return document.getElementById('run').disabled"), false);
  // The window warmed a worker up for the folder while the code was being typed.
  const warm = await waitForIdleWarm("one is kept for the open folder");
  assert.equal(warm.length, 1, `one warm worker, not ${warm}`);
  await s.click(await s.find("#run"));
  const width = await s.waitFor(
    "the figure",
    "const i = document.getElementById('figure-img'); return !i.hidden && i.complete && i.naturalWidth",
    { timeout: 180000 },
  );
  assert.ok(width > 0);
  const figure = await s.exec("return document.getElementById('figure-info').title");
  const bytes = fs.readFileSync(figure);
  assert.ok(bytes.length > 1000, `${figure} is a real file`);
  assert.equal(bytes.subarray(1, 4).toString(), "PNG");
  const gallery = await s.exec("return document.querySelectorAll('#gallery li').length");
  assert.equal(gallery, 1);
  // It ran warm: on Linux in a child of the kept fork server, which stays for the next Run
  // (no child is left); elsewhere on the kept worker, which then exited and is replaced.
  const states = workerStates();
  if (isForkServer(warm[0])) {
    assert.deepEqual(states.idle, warm, `the fork server ${warm} stays after the figure`);
    assert.deepEqual(states.busy, [], "the figure's process is gone");
    // The next figure's child waits, forked ahead by the server.
    const until = Date.now() + 30000;
    let spares = workerStates().spare;
    while (spares.length === 0 && Date.now() < until) {
      await sleep(100);
      spares = workerStates().spare;
    }
    assert.equal(spares.length, 1, "one child forked ahead for the next figure");
    assert.equal(parentOf(spares[0]), warm[0], "the child forked ahead is the server's");
  } else {
    const after = Object.values(states).flat();
    assert.ok(warm.every((pid) => !after.includes(pid)), `the warm worker ${warm} ran the code and is gone`);
    await waitForIdleWarm("a replacement after the figure", warm);
  }
  const png = await shot("03-figure");
  fs.writeFileSync(path.join(SCREENS, "main-window.png"), png);
  // Export SVG re-runs the same code as a vector figure next to the PNG.
  const svgPath = figure.replace(/\.png$/, ".svg");
  await s.click(await s.find("#export-svg"));
  await s.waitFor(
    "the SVG export",
    `return document.getElementById('messages').textContent.includes(${JSON.stringify(`Saved ${svgPath}`)})`,
    { timeout: 180000 },
  );
  const svg = fs.readFileSync(svgPath, "utf8");
  assert.ok(svg.startsWith("<?xml") || svg.startsWith("<svg"), `${svgPath} is an SVG`);
});

test("a chat-style script ending in plt.show() shows both its figures, and the report's warning", async () => {
  // As a chat assistant writes it: plain file names, no OUT, two figures, plt.show().
  await typeCode([
    "import pandas as pd",
    "import matplotlib.pyplot as plt",
    'bands = pd.read_csv("bands.csv")',
    "plt.figure()",
    'plt.plot(bands["k"], bands["band1_eV"])',
    'plt.title("Band 1")',
    'plt.xlabel("k")',
    'plt.ylabel("Energy (eV)")',
    "fig, axes = plt.subplots(1, 2)",
    "axes[0].plot([1, 2, 3])",
    'axes[0].set_title("Left")',
    'axes[1].set_title("Right")',
    "plt.show()",
  ]);
  await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
  const before = await s.exec("return document.querySelectorAll('#gallery li').length");
  await s.click(await s.find("#run"));
  const paths = await s.waitFor(
    "both figures side by side",
    "const b = [...document.querySelectorAll('#run-figures button')]; return !document.getElementById('run-figures').hidden && b.length === 2 && b.map(x => x.dataset.path)",
    { timeout: 180000 },
  );
  for (const p of paths) assert.equal(fs.readFileSync(p).subarray(1, 4).toString(), "PNG", p);
  assert.match(paths[1], /-2\.png$/);
  assert.equal(await s.exec("return document.querySelectorAll('#gallery li').length"), before + 2);
  const note = await s.exec("return document.getElementById('messages').textContent");
  assert.match(note, /plt\.show\(\)/, "the result says how the figures were captured");
  // The first figure is clean (titled and labelled); the second has an empty panel, and says so under it.
  assert.equal(await s.exec("return document.getElementById('figure-warnings').hidden"), true);
  const buttons = await s.findAll("#run-figures button");
  await s.click(buttons[1]);
  const warning = await s.waitFor(
    "the empty-axes warning",
    "const w = document.getElementById('figure-warnings'); return !w.hidden && w.textContent",
  );
  assert.match(warning, /'Right' is empty/);
  await shot("03b-two-figures-warning");
});

test("Run again with the suggested name keeps both earlier figures, and 图1 is a figure", async () => {
  const setName = (name) =>
    s.exec(`const i = document.getElementById('fig-name'); i.value = ${JSON.stringify(name)}; i.dispatchEvent(new Event('input')); return true`);
  const galleryNames = () => s.exec("return [...document.querySelectorAll('#gallery li')].map(e => e.textContent)");
  await typeCode([
    "plt.figure()",
    "plt.plot([1, 2, 3])",
    "plt.figure()",
    "plt.plot([3, 2, 1])",
    "plt.show()",
  ]);
  await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
  await setName("bands");
  await s.waitFor("the run button", "return !document.getElementById('run').disabled");
  await s.click(await s.find("#run"));
  const first = await s.waitFor(
    "both figures of bands",
    // The previous test's two figures stay listed until this run's result arrives: wait for ours.
    "const b = [...document.querySelectorAll('#run-figures button')]; return !document.getElementById('run-figures').hidden && b.length === 2 && b[0].dataset.path.endsWith('bands.png') && b.map(x => x.dataset.path)",
    { timeout: 180000 },
  );
  assert.match(first[0], /bands\.png$/);
  assert.match(first[1], /bands-2\.png$/);
  const before = first.map((p) => fs.readFileSync(p));
  // The suggestion is free: never bands-2, which is bands's second figure.
  const suggested = await s.waitFor("the suggested name", "const v = document.getElementById('fig-name').value; return v !== 'bands' && v");
  assert.notEqual(suggested, "bands-2");
  assert.equal(await s.exec("return document.getElementById('name-state').hidden"), true);
  await s.click(await s.find("#run"));
  await s.waitFor(
    "the second run's figures",
    `const b = [...document.querySelectorAll('#run-figures button')]; return b.length === 2 && b[0].dataset.path.endsWith(${JSON.stringify(`${suggested}.png`)})`,
    { timeout: 180000 },
  );
  first.forEach((p, i) => assert.deepEqual(fs.readFileSync(p), before[i], `${p} was replaced`));
  const names = await galleryNames();
  for (const n of ["bands", "bands-2", suggested]) assert.ok(names.some((t) => t.includes(n)), `${n} in ${names}`);
  // The engine judges the name as it is typed, and says why once.
  await setName("bands-2");
  const why = await s.waitFor("the name's verdict", "const v = document.getElementById('name-state'); return !v.hidden && v.textContent");
  assert.match(why, /run `bands`/);
  // A name in any script is a figure, in the gallery and the history.
  await setName("图1");
  await s.waitFor("the name accepted", "return document.getElementById('name-state').hidden");
  await s.click(await s.find("#run"));
  const cjk = await s.waitFor(
    "图1 in the gallery",
    "return [...document.querySelectorAll('#gallery li')].some(e => e.textContent.includes('图1'))",
    { timeout: 180000 },
  );
  assert.ok(cjk);
  const shown = await s.exec("return document.getElementById('figure-info').title");
  assert.ok(shown.endsWith("图1.png") && fs.existsSync(shown), shown);
  // A refused name is said once, not twice (message and hint are one sentence).
  await setName("CON");
  await s.click(await s.find("#run"));
  const text = await s.waitFor("the refusal", "const m = document.getElementById('run-error'); return !m.hidden && m.textContent.includes('device name') && m.textContent");
  assert.equal(text.split("device name").length - 1, 1, text);
  await setName("figure-9");
});

test("`import subprocess` gets an inline diagnostic and Run is disabled", async () => {
  await typeCode(["import subprocess", 'plt.plot([1, 2], [3, 4])', "plt.savefig(OUT)"]);
  await s.waitFor("the inline diagnostic", "return document.querySelector('.cm-lintRange-error') !== null");
  await s.waitFor("the gutter marker", "return document.querySelector('.cm-lint-marker-error') !== null");
  const underlined = await s.exec("return document.querySelector('.cm-lintRange-error').textContent");
  assert.match(underlined, /subprocess/);
  const decoration = await s.exec("return getComputedStyle(document.querySelector('.cm-lintRange-error')).textDecorationLine");
  assert.match(decoration, /underline/, "the violation is underlined");
  // Hovering the underlined text shows the instructional message.
  const range = await s.find(".cm-lintRange-error");
  await s.cmd("POST", "/actions", {
    actions: [{ type: "pointer", id: "mouse", parameters: { pointerType: "mouse" },
      actions: [{ type: "pointerMove", origin: { "element-6066-11e4-a52e-4f735466cecf": range }, x: 0, y: 0, duration: 100 }] }],
  });
  const tooltip = await s.waitFor("the hover message", "const t = document.querySelector('.cm-tooltip-lint'); return t && t.textContent");
  assert.match(tooltip, /`subprocess` is not an allowed module/);
  assert.equal(await s.exec("return document.getElementById('run').disabled"), true);
  const message = await s.exec("return document.getElementById('messages').textContent");
  assert.match(message, /subprocess/);
  await shot("04-rejected");
});

test("`while True: pass` is cancelled within 2 s and the worker is gone", async () => {
  await typeCode(["while True: pass"]);
  await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
  await s.click(await s.find("#run"));
  await s.waitFor("the running stage", "return document.getElementById('stage').textContent.startsWith('Running')", { timeout: 60000 });
  // The worker running the code is a child of the app (the same executable, self-dispatched);
  // an idle warm worker, if one is kept, is not it.
  let workers = [];
  const until = Date.now() + 30000;
  while (Date.now() < until && workers.length === 0) {
    workers = workerStates().busy.map((pid) => ({ pid }));
    if (!workers.length) await sleep(100);
  }
  assert.equal(workers.length, 1, "one confined worker is running");
  const worker = workers[0].pid;
  const tree = [worker, ...descendants(worker)];
  await shot("05-running");
  const clicked = Date.now();
  await s.click(await s.find("#cancel"));
  let gone = false;
  while (Date.now() - clicked < 2000) {
    if (tree.every((pid) => !fs.existsSync(`/proc/${pid}`))) {
      gone = true;
      break;
    }
    await sleep(20);
  }
  const took = Date.now() - clicked;
  assert.ok(gone, `the worker tree ${tree} is still there ${took} ms after Cancel`);
  console.log(`# worker tree ${tree.join(",")} gone ${took} ms after Cancel`);
  await s.waitFor("the cancelled state", "return document.getElementById('stage').textContent === 'Cancelled'");
  assert.deepEqual(workerStates().busy, [], "no worker runs code any more");
  // The one kept now is the fork server (Linux; elsewhere a new warm worker): never the
  // process that ran the code.
  await waitForIdleWarm("a warm one after Cancel", tree);
  assert.equal(await s.exec("return document.getElementById('run').disabled"), false);
  await shot("06-cancelled");
});

test("the selftest reports imports N/N and every canary contained", async () => {
  await s.click(await s.find("#selftest"));
  await shot("07-selftest-running");
  const summary = await s.waitFor(
    "the selftest report",
    "const e = document.getElementById('selftest-summary'); return e && e.textContent",
    { timeout: 300000, interval: 500 },
  );
  const m = /imports (\d+)\/(\d+)/.exec(summary);
  assert.ok(m, summary);
  assert.equal(m[1], m[2], `every import works: ${summary}`);
  assert.ok(Number(m[2]) > 0);
  assert.match(summary, /savefig [\d,]+ bytes/);
  const canaries = await s.exec(
    "return [...document.querySelectorAll('#selftest-canaries li')].map(li => [li.dataset.ok, li.innerText])",
  );
  assert.ok(canaries.length > 0, "the report lists the canaries");
  for (const [ok, text] of canaries) assert.equal(ok, "true", `canary not contained: ${text}`);
  const failed = await s.exec("return [...document.querySelectorAll('#selftest-report li.bad')].map(li => li.innerText)");
  assert.deepEqual(failed, []);
  assert.match(await s.exec("return document.getElementById('selftest-verdict').textContent"), /Everything works/);
  await shot("08-selftest");
  await s.click(await s.find("#selftest-close"));
});

test("readable at 125 % and 200 % zoom", async () => {
  // Page zoom Z on a W×H window lays out like a (W/Z)×(H/Z) viewport; WebDriver can size
  // the window but not zoom WebKitGTK, so the two zoom levels are checked as viewports.
  const columns = () => s.exec("return getComputedStyle(document.querySelector('.layout')).gridTemplateColumns.split(' ').length");
  const overflow = () => s.exec("return document.documentElement.scrollWidth > document.documentElement.clientWidth + 1");
  await s.cmd("POST", "/window/rect", { width: 1024, height: 656 });
  await shot("09-zoom-125");
  assert.equal(await columns(), 3);
  assert.equal(await overflow(), false, "no horizontal scrolling at 125 %");
  await s.cmd("POST", "/window/rect", { width: 640, height: 410 });
  await shot("10-zoom-200");
  assert.equal(await columns(), 1);
  assert.equal(await overflow(), false, "no horizontal scrolling at 200 %");
  await s.cmd("POST", "/window/rect", { width: 1280, height: 820 });
});

test("nothing was refused by the Content-Security-Policy", async () => {
  const refused = await s.exec("return document.documentElement.dataset.cspViolations || '[]'");
  assert.deepEqual(JSON.parse(refused), []);
});

test("the app's end takes its warm worker and run directory along, even when killed", async () => {
  const alive = (pid) => {
    try {
      return !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
    } catch {
      return false;
    }
  };
  const waitGone = async (what, check) => {
    const until = Date.now() + 30000;
    while (Date.now() < until && !check()) await sleep(100);
    assert.ok(check(), what);
  };
  const [warm] = await waitForIdleWarm("one is kept before the app ends");
  const runDir = runDirOf(warm);
  const [app] = processes().app.map((p) => p.pid);
  // WebKitWebDriver ends the app outright when the session ends: no exit handler runs.
  await s.end();
  s = null;
  await waitGone(`the app ${app} and its warm worker ${warm} are gone`, () => !alive(app) && !alive(warm));
  // The next start sweeps the run directory the killed app left behind ...
  const again = spawn(APP, ["--open", DATA], { stdio: "ignore" });
  try {
    const [warm2] = await waitForIdleWarm("the new app warms one up", [warm]);
    const runDir2 = runDirOf(warm2);
    assert.ok(!fs.existsSync(runDir), `${runDir}, left by the killed app, was not swept`);
    // ... and a signal (logout, kill) ends the app through its exit handler, which stops
    // the warm worker and removes its run directory.
    again.kill("SIGTERM");
    await waitGone(`the app ${again.pid} ends on SIGTERM`, () => !alive(again.pid));
    await waitGone(`its warm worker ${warm2} is gone`, () => !alive(warm2));
    assert.ok(!fs.existsSync(runDir2), `the warm worker's run directory ${runDir2} was left behind`);
  } finally {
    again.kill("SIGKILL");
  }
});
