// End-to-end: the window as a new person meets it (issue #43), the release `pdfagent` in the
// real webview (tauri-driver + WebKitWebDriver under Xvfb). Started by `scripts/test-e2e`
// with PDFAGENT_E2E_SUITE pointing here:
//
//   PDFAGENT_E2E_SUITE=$PWD/tests/e2e/person.test.mjs scripts/test-e2e
//
// Each folder is opened as the person's own (`--open`): a .csv-only one, a .mat-only one and
// one with no data. The starter code runs unchanged on each; a failing run shows the line of
// the code first and no run directory; new code clears it; Ctrl+Enter runs from the name
// box; Copy says "Copied"; select-all stays out of the page; the tree's arrows follow the
// folder's state. Screenshots: target/e2e-screens/3x-*.png.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Session, Keys, need, sleep } from "./webdriver.mjs";

const APP = need("PDFAGENT_APP");
const DATA = need("PDFAGENT_DATA");
const SCREENS = need("PDFAGENT_SCREENS");
const DRIVER = process.env.PDFAGENT_WEBDRIVER ?? "http://127.0.0.1:4444";

// The person's folders, beside the script's DATA (its temporary folder, removed after).
const ROOT = path.join(path.dirname(DATA), "person");
function folder(name, files, dirs = []) {
  const dir = path.join(ROOT, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of files) fs.copyFileSync(path.join(DATA, f), path.join(dir, f));
  for (const d of dirs) fs.mkdirSync(path.join(dir, d), { recursive: true });
  return fs.realpathSync(dir);
}
const CSV_ONLY = folder("csv-only", ["bands.csv"]);
const MAT_ONLY = folder("mat-only", ["field_sweep.mat"]);
const NO_DATA = folder("no-data", [], ["notes/old"]);

let s;

async function open(dir) {
  // The webview writes its storage (the draft) to disk a moment after a change; the session's
  // end kills the app outright.
  if (s) {
    await sleep(2000);
    await s.end().catch(() => {});
    // As the history suite does: the killed app's display connection is let go first.
    await sleep(1500);
  }
  s = await Session.start(DRIVER, { "tauri:options": { application: APP, args: ["--open", dir] } });
  await s.waitFor("the window to start", "return document.body.dataset.ready === 'true'", { timeout: 120000 });
}

after(async () => {
  await s?.end().catch(() => {});
});

async function shot(name) {
  await sleep(500);
  fs.writeFileSync(path.join(SCREENS, `${name}.png`), await s.screenshot());
}

const editorText = () => s.exec("return document.querySelector('.cm-content').innerText.replace(/\\n+$/, '')");

/** Replace the editor's text by typing it (Ctrl+A, then the lines with Enter between). */
async function typeCode(lines) {
  const content = await s.find(".cm-content");
  await s.click(content);
  await s.type(content, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE);
  await s.type(content, lines.join(Keys.ENTER));
  assert.equal(await editorText(), lines.join("\n"), "the editor holds exactly what was typed");
}

/** Run with the Run button and wait for the outcome; returns the stage's text. */
async function runAndWait(start = () => s.find("#run").then((b) => s.click(b))) {
  await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
  await s.waitFor("Run to be enabled", "return !document.getElementById('run').disabled");
  await start();
  await s.waitFor("the run to start", "return document.getElementById('cancel').disabled === false || document.getElementById('stage').textContent !== ''");
  return s.waitFor(
    "the run's outcome",
    "const t = document.getElementById('stage').textContent; return document.getElementById('cancel').disabled && t && !t.endsWith('…') && t",
    { timeout: 180000 },
  );
}

/** The figure shown is a PNG on disk; returns its path. */
async function figureOnDisk() {
  await s.waitFor("the figure", "const i = document.getElementById('figure-img'); return !i.hidden && i.complete && i.naturalWidth > 0", {
    timeout: 60000,
  });
  const file = await s.exec("return document.getElementById('figure-info').title");
  assert.equal(fs.readFileSync(file).subarray(1, 4).toString(), "PNG", file);
  return file;
}

test("a .csv-only folder: the starter code reads that table and runs unchanged", async () => {
  await open(CSV_ONLY);
  assert.equal(await s.exec("return document.getElementById('editor').dataset.starter"), "set");
  const code = await editorText();
  assert.match(code, /load\('bands\.csv'\)/, code);
  assert.doesNotMatch(code, /spectrum\.npy/, "nothing of the example folder");
  assert.match(await runAndWait(), /^Done: /);
  await figureOnDisk();
  await shot("30-starter-csv");
});

test("a .mat-only folder: the untouched starter gives way to this folder's, which runs unchanged", async () => {
  await open(MAT_ONLY);
  assert.equal(await s.exec("return document.getElementById('editor').dataset.starter"), "set");
  const code = await editorText();
  assert.match(code, /load\('field_sweep\.mat'\)/, code);
  assert.doesNotMatch(code, /bands\.csv/, "the last folder's starter was replaced");
  assert.match(await runAndWait(), /^Done: /);
  const file = await figureOnDisk();
  assert.ok(file.endsWith(".png"));
  // The time is the run's own, and in one format with the gallery's.
  const elapsed = await s.exec("return document.getElementById('elapsed').textContent");
  assert.match(elapsed, /^\d+ ms$|^\d+\.\d s$/);
  const infoTime = await s.exec("return document.getElementById('figure-info').textContent.split(' · ').pop()");
  const galleryTime = await s.exec("return document.querySelector('#gallery small').textContent.split(' · ').pop()");
  assert.equal(infoTime, galleryTime);
  // The screenshot for docs/desktop-app.md: once the gallery's picture is decoded too, and
  // painted (a loaded machine paints late).
  await s.waitFor("the gallery's picture", "const i = document.querySelector('#gallery img'); return i && i.complete && i.naturalWidth > 0");
  await sleep(2000);
  await shot("31-first-run");
});

test("Copy says Copied on the button", async () => {
  const copy = await s.find("#copy-figure");
  await s.click(copy);
  const said = await s.waitFor(
    "Copied (or why not)",
    "const b = document.getElementById('copy-figure'); const m = document.getElementById('messages'); return (b.textContent === 'Copied' && 'Copied') || (!m.hidden && m.textContent)",
  );
  assert.equal(said, "Copied");
  await s.waitFor("the label back", "return document.getElementById('copy-figure').textContent === 'Copy'", { timeout: 5000 });
});

test("a failing run shows the code's line and the exception first, no run directory, and new code clears it", async () => {
  await typeCode(['data = load("field_sweep.mat")', "x = data[\"B_T\"]", 'plt.plot(x, data["Rxx"])', "plt.savefig(OUT)"]);
  assert.equal(await runAndWait(), "The code failed");
  const box = await s.waitFor("the error box", "const b = document.getElementById('run-error'); return !b.hidden && b.innerText");
  const first = await s.exec("return document.querySelector('#run-error').firstElementChild.textContent");
  assert.equal(first, "Line 3 of your code:", box);
  assert.equal(await s.exec("return document.querySelector('#run-error .run-error-line').textContent"), 'plt.plot(x, data["Rxx"])');
  assert.match(await s.exec("return document.querySelector('#run-error .run-error-what').textContent"), /^KeyError — a key or column that is not there: /);
  // What the window's person reads (the folded details too): no run directory, no agent wording.
  const all = await s.exec("return document.getElementById('run-error').textContent + document.getElementById('messages').textContent");
  assert.doesNotMatch(all, /pdfagent-run-/);
  assert.doesNotMatch(all, /stderr_tail|retry/);
  assert.equal(await s.exec("return document.querySelector('#run-error details').open"), false, "the frames are folded");
  const elapsed = await s.exec("return document.getElementById('elapsed').textContent");
  assert.notEqual(elapsed, "0.0 s");
  assert.match(elapsed, /^\d+ ms$|^\d+\.\d s$/);
  await sleep(1500);
  await shot("32-error-box");
  // Details opens onto the frames: the code's own marked, the library's named.
  await s.click(await s.find("#run-error summary"));
  const kinds = await s.exec("return [...document.querySelectorAll('#run-error .run-error-frames li')].map(li => li.dataset.kind)");
  assert.ok(kinds.includes("user"), JSON.stringify(kinds));
  // New code in the editor takes the error, its stage and its time away at once.
  const content = await s.find(".cm-content");
  await s.click(content);
  await s.type(content, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE);
  assert.equal(await s.exec("return document.getElementById('run-error').hidden"), true);
  assert.equal(await s.exec("return document.getElementById('stage').textContent"), "");
  assert.equal(await s.exec("return document.getElementById('elapsed').textContent"), "");
});

test("Ctrl+Enter in the name box runs; a new rejection does not stand under the last Done", async () => {
  await typeCode(["plt.plot([1, 3, 2])", "plt.savefig(OUT)"]);
  const name = await s.find("#fig-name");
  await s.click(name);
  const before = await s.exec("return document.querySelectorAll('#gallery li').length");
  const stage = await runAndWait(() => s.type(name, Keys.CONTROL + Keys.ENTER + Keys.CONTROL));
  assert.match(stage, /^Done: /);
  assert.equal(await s.exec("return document.querySelectorAll('#gallery li').length"), before + 1);
  await typeCode(["import subprocess", "plt.savefig(OUT)"]);
  await s.waitFor("the rejection", "return document.getElementById('check-state').textContent.includes('not allowed')");
  assert.doesNotMatch(await s.exec("return document.getElementById('stage').textContent"), /Done/);
});

test("Ctrl+A outside the editor selects nothing of the page", async () => {
  await s.click(await s.find("#figure-title"));
  await s.cmd("POST", "/actions", {
    actions: [
      {
        type: "key",
        id: "keyboard",
        actions: [
          { type: "keyDown", value: Keys.CONTROL },
          { type: "keyDown", value: "a" },
          { type: "keyUp", value: "a" },
          { type: "keyUp", value: Keys.CONTROL },
        ],
      },
    ],
  });
  await sleep(200);
  assert.equal(await s.exec("return window.getSelection().toString()"), "");
  // Leave a draft of the person's own for the next test.
  await typeCode(["# my own work", "plt.plot([0, 1])", "plt.savefig(OUT)"]);
});

test("a folder with no data: the person's draft is kept; emptied, the starter draws without data", async () => {
  await open(NO_DATA);
  assert.equal(await s.exec("return document.getElementById('editor').dataset.starter"), "kept");
  assert.equal(await editorText(), "# my own work\nplt.plot([0, 1])\nplt.savefig(OUT)", "the draft is not overwritten");
  const content = await s.find(".cm-content");
  await s.click(content);
  await s.type(content, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE);
  await open(NO_DATA);
  assert.equal(await s.exec("return document.getElementById('editor').dataset.starter"), "set");
  const code = await editorText();
  assert.match(code, /draws without data/);
  const statements = code.split("\n").filter((line) => !line.startsWith("#")).join("\n");
  assert.doesNotMatch(statements, /load\(|srcpath\(/, "it reads no file");
  assert.match(await runAndWait(), /^Done: /);
  await figureOnDisk();
  // The folder's arrow points down while open, right when folded (its contents hidden).
  const arrow = () => s.exec("const b = document.querySelector('#tree .tree-item.dir'); return [b.textContent.trim()[0], b.getAttribute('aria-expanded')]");
  assert.deepEqual(await arrow(), ["▾", "true"]);
  await s.click(await s.find('#tree [data-path="notes"]'));
  assert.deepEqual(await arrow(), ["▸", "false"]);
  assert.equal(await s.exec("return document.querySelector('#tree [data-path=\"notes/old\"]').closest('li').hidden"), true);
  await s.click(await s.find('#tree [data-path="notes"]'));
  assert.deepEqual(await arrow(), ["▾", "true"]);
  assert.equal(await s.exec("return document.querySelector('#tree [data-path=\"notes/old\"]').closest('li').hidden"), false);
});

test("nothing was refused by the Content-Security-Policy", async () => {
  const refused = await s.exec("return document.documentElement.dataset.cspViolations || '[]'");
  assert.deepEqual(JSON.parse(refused), []);
});
