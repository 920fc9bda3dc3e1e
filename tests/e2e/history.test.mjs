// The window's history — the lab notebook — in the real webview: a name run twice keeps
// both figures (the entry groups its earlier versions, each with its picture, and the first
// is restored byte for byte); every entry shows its picture (after a restart too);
// selecting an entry shows that figure and loads its code, and running it again makes a
// new version, never a loss; a data file edited while the window is open marks its figures
// stale with no run in between; "Re-run stale" puts the redrawn figures in the history and
// in the session's gallery. Run with
//   PDFAGENT_E2E_SUITE=tests/e2e/history.test.mjs scripts/test-e2e
// (a private XDG_DATA_HOME per run: the history lives in the app's data folder).

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { Session, Keys, sleep } from "./webdriver.mjs";

const APP = process.env.PDFAGENT_APP;
const SCREENS = process.env.PDFAGENT_SCREENS;
const DRIVER = process.env.PDFAGENT_WEBDRIVER ?? "http://127.0.0.1:4444";

async function open(data) {
  const s = await Session.start(DRIVER, { "tauri:options": { application: APP, args: ["--open", data] } });
  await s.waitFor("the window to start", "return document.body.dataset.ready === 'true'");
  return s;
}

async function typeCode(s, lines) {
  const content = await s.find(".cm-content");
  await s.click(content);
  await s.type(content, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE);
  await s.type(content, lines.join(Keys.ENTER));
}

async function setName(s, name) {
  const input = await s.find("#fig-name");
  await s.click(input);
  await s.type(input, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE + name);
}

/** Type `lines` under `name`, Run, and wait for the figure; returns its path. */
async function runFigure(s, name, lines) {
  await setName(s, name);
  await typeCode(s, lines);
  await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
  const before = await s.exec("return document.getElementById('figure-img').src");
  await s.click(await s.find("#run"));
  await s
    .waitFor(
      "the figure",
      "const i = document.getElementById('figure-img'); return !i.hidden && i.src !== arguments[0] && i.complete && i.naturalWidth > 0",
      { timeout: 180000 },
      before,
    )
    .catch(async (e) => {
      // What the window said instead (the stage and the message under the editor).
      const said = await s.exec("return [document.getElementById('stage').textContent, document.getElementById('messages').textContent]");
      throw new Error(`${e.message}; the window said: ${JSON.stringify(said)}`);
    });
  return s.exec("return document.getElementById('figure-info').title");
}

/** Click the history entry of `file` (a real click, on the element WebDriver found). */
async function selectEntry(s, file) {
  const files = await s.exec("return [...document.querySelectorAll('#history button.history-entry')].map(b => b.dataset.file)");
  const index = files.indexOf(file);
  assert.ok(index >= 0, `${file} is in the history`);
  await s.click((await s.findAll("#history button.history-entry"))[index]);
}

const entries = (s) =>
  s.exec("return [...document.querySelectorAll('#history button.history-entry')].map(b => ({file: b.dataset.file, state: b.dataset.state}))");

/** The kept versions under the entry of `file`: [{file, version}], newest first. */
const versionsOf = (s, file) =>
  s.exec(
    `const b = [...document.querySelectorAll('#history button.history-entry')].find(b => b.dataset.file === arguments[0]);
     return [...b.closest('li').querySelectorAll('button.history-version')].map(v => ({file: v.dataset.file, version: Number(v.dataset.version)}));`,
    file,
  );

/** Click the version `version` of the entry `file` (`restore`: its Restore button). */
async function clickVersion(s, file, version, restore = false) {
  const all = await s.exec(
    "return [...document.querySelectorAll('#history button.history-version')].map(v => [v.closest('li').parentElement.closest('li').querySelector('.history-entry').dataset.file, Number(v.dataset.version)])",
  );
  const index = all.findIndex(([f, v]) => f === file && v === version);
  assert.ok(index >= 0, `version ${version} of ${file} is in the history`);
  await s.click((await s.findAll(restore ? "#history button.history-restore" : "#history button.history-version"))[index]);
}

/** `count` thumbnails in the history (entries and versions), each decoded by the webview
 * (each is loaded when scrolled into view: the wait scrolls to the first one not shown). */
const thumbnailsShown = (s, count) =>
  s.waitFor(
    `${count} thumbnails`,
    `const imgs = [...document.querySelectorAll('#history img.history-thumb')];
     const missing = imgs.find(i => !(i.complete && i.naturalWidth > 0));
     if (missing) missing.scrollIntoView({ block: 'nearest' });
     return imgs.length === arguments[0] && !missing;`,
    {},
    count,
  );

/** The figure pane shows the file `file` (its name and a decoded picture). */
const figureShown = (s, file) =>
  s.waitFor(
    `the figure pane to show ${file}`,
    `const i = document.getElementById('figure-img');
     return document.getElementById('figure-info').title === arguments[0] && !i.hidden && i.complete && i.naturalWidth > 0;`,
    {},
    file,
  );

const line = (title) => [
  "import pandas as pd",
  'bands = pd.read_csv("bands.csv")',
  'plt.plot(bands["k"], bands.iloc[:, 1])',
  `plt.title("${title}")`,
  "plt.savefig(OUT)",
];
const scatter = [
  "import pandas as pd",
  'bands = pd.read_csv("bands.csv")',
  'plt.scatter(bands["k"], bands.iloc[:, 1], c="tab:red")',
  'plt.title("Scatter")',
  "plt.savefig(OUT)",
];

test("the history shows every figure's picture, notices changed data and re-runs it", { timeout: 900000 }, async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "pdfagent-history-"));
  fs.cpSync(process.env.PDFAGENT_DATA, data, { recursive: true });
  let s = await open(data);
  let first;
  let second;
  let nameAtClose;
  try {
    // One name run twice with different code: one entry, its earlier version kept with its
    // picture, byte for byte the first figure.
    first = await runFigure(s, "history-e2e", line("History"));
    const firstBytes = fs.readFileSync(first);
    assert.equal(await runFigure(s, "history-e2e", line("Second")), first);
    const secondVersionBytes = fs.readFileSync(first);
    assert.notDeepEqual(secondVersionBytes, firstBytes, "the second run drew another figure");
    await s.waitFor("the entry's kept version", "return document.querySelectorAll('#history button.history-version').length === 1");
    let kept = await versionsOf(s, first);
    assert.equal(kept.length, 1);
    assert.deepEqual(fs.readFileSync(kept[0].file), firstBytes, "the first figure is kept byte for byte");
    await thumbnailsShown(s, 2);

    // Settings says how much the store of earlier versions keeps, and where (nothing is
    // pruned silently).
    await s.click(await s.find("#settings"));
    await s.waitFor(
      "the versions store's size in Settings",
      "const p = document.getElementById('versions-size'); return document.getElementById('settings-dialog').open && Number(p.dataset.versions) >= 1",
    );
    const sizeLine = await s.exec("return document.getElementById('versions-size').textContent");
    console.log(`history: Settings says "${sizeLine}"`);
    assert.match(sizeLine, /Earlier versions kept: [1-9]\d* versions? of 1 name, [\d.]+ (B|KB|MB)/, sizeLine);
    assert.ok(sizeLine.includes(".pdfagent-versions") && sizeLine.includes("--prune"), sizeLine);
    await s.click(await s.find("#settings-cancel"));
    await s.waitFor("Settings to close", "return !document.getElementById('settings-dialog').open");

    second = await runFigure(s, "scatter-e2e", scatter);
    await s.waitFor("both history entries", "return document.querySelectorAll('#history button.history-entry').length === 2");
    assert.deepEqual(await entries(s), [
      { file: second, state: "fresh" },
      { file: first, state: "fresh" },
    ]);
    await thumbnailsShown(s, 3);

    // Selecting the older entry shows its figure and loads its code under its name; running
    // it again makes a new version: the figure it replaces is kept, byte for byte.
    await selectEntry(s, first);
    await figureShown(s, first);
    const code = await s.exec("return document.querySelector('.cm-content').innerText");
    assert.equal(code.replace(/\n+$/, ""), line("Second").join("\n"), "the entry's code is in the editor");
    assert.equal(await s.exec("return document.getElementById('fig-name').value"), "history-e2e");
    assert.match(await s.exec("return document.getElementById('messages').textContent"), /new version/);
    await s.click(await s.find("#run"));
    await s.waitFor(
      "the run from the entry",
      "const t = document.getElementById('stage').textContent; return t.startsWith('Done') && t.includes('history-e2e')",
      { timeout: 180000 },
    );
    await s.waitFor("two kept versions", "return document.querySelectorAll('#history button.history-version').length === 2");
    kept = await versionsOf(s, first);
    assert.deepEqual(
      kept.map((v) => fs.readFileSync(v.file)),
      [secondVersionBytes, firstBytes],
      "both earlier figures are kept, newest first",
    );

    // A version shows its own figure and code; Restore makes it current again, byte for byte.
    await clickVersion(s, first, kept[1].version);
    await figureShown(s, kept[1].file);
    const versionCode = await s.exec("return document.querySelector('.cm-content').innerText");
    assert.equal(versionCode.replace(/\n+$/, ""), line("History").join("\n"), "the version's code is in the editor");
    await clickVersion(s, first, kept[1].version, true);
    await s.waitFor("the restore", "return document.getElementById('messages').textContent.includes('current figure again')");
    assert.deepEqual(fs.readFileSync(first), firstBytes, "the restored figure is the first one, byte for byte");
    await s.waitFor("three kept versions", "return document.querySelectorAll('#history button.history-version').length === 3");
    await thumbnailsShown(s, 5);
    nameAtClose = await s.exec("return document.getElementById('fig-name').value");
  } finally {
    await s.end().catch(() => {});
  }
  await sleep(1000);
  // The data change while the app is closed.
  fs.appendFileSync(path.join(data, "bands.csv"), "3.5,1,1,1\n");

  s = await open(data);
  try {
    // After a restart: every entry and version with its picture, the entries stale (they
    // all read bands.csv).
    await s.waitFor("the history after the restart", "return document.querySelectorAll('#history button.history-entry').length === 2");
    assert.deepEqual(
      (await entries(s)).map((e) => e.state),
      ["stale", "stale"],
    );
    await thumbnailsShown(s, 5);
    assert.equal(await s.exec("return document.getElementById('fig-name').value"), nameAtClose, "the name is back");
    await selectEntry(s, first);
    await figureShown(s, first);
    await sleep(500);
    fs.writeFileSync(path.join(SCREENS, "20-history-stale.png"), await s.screenshot());

    // "Re-run stale": the redrawn figures land in the session's gallery (empty after the
    // restart) and in the history, fresh, with their new pictures.
    const secondBefore = fs.readFileSync(second);
    assert.equal(await s.exec("return document.getElementById('history-rerun').disabled"), false);
    await s.click(await s.find("#history-rerun"));
    await s.waitFor("the re-run", "return document.getElementById('history-progress').textContent.includes('2 of 2 redrawn')", { timeout: 300000 });
    await s.waitFor(
      "every entry to be fresh",
      "const b = [...document.querySelectorAll('#history button.history-entry')]; return b.length === 2 && b.every(e => e.dataset.state === 'fresh')",
    );
    // Every kept version is still listed, each with its picture.
    const versionCount = await s.exec("return document.querySelectorAll('#history button.history-version').length");
    assert.ok(versionCount >= 3, `the kept versions are still listed (${versionCount})`);
    await thumbnailsShown(s, 2 + versionCount);
    await s.waitFor(
      "the redrawn figures in the gallery",
      `const shown = [...document.querySelectorAll('#gallery button')]
         .filter(b => { const i = b.querySelector('img'); return i && i.complete && i.naturalWidth > 0; })
         .map(b => b.dataset.path);
       return shown.length === 2 && shown.includes(arguments[0]) && shown.includes(arguments[1]);`,
      {},
      first,
      second,
    );
    assert.notDeepEqual(fs.readFileSync(second), secondBefore, "the figure file was redrawn");
    await sleep(500);
    fs.writeFileSync(path.join(SCREENS, "21-history-versions.png"), await s.screenshot());

    // Live staleness: a data file edited while the window is open marks the figures that
    // read it stale, with no run in between (the product promises 2 s; the bound here is
    // generous so a loaded machine does not fail the suite, and the time is printed).
    const edited = Date.now();
    fs.appendFileSync(path.join(data, "bands.csv"), "4.5,2,2,2\n");
    await s.waitFor(
      "the entries to turn stale without a run",
      "const b = [...document.querySelectorAll('#history button.history-entry')]; return b.length === 2 && b.every(e => e.dataset.state === 'stale')",
      { timeout: 20000, interval: 50 },
    );
    console.log(`history: stale shown ${Date.now() - edited} ms after the data file was written`);
    assert.equal(await s.exec("return document.getElementById('stage').textContent.startsWith('Running')"), false);
    await sleep(500); // the next frame painted
    fs.writeFileSync(path.join(SCREENS, "22-history-live-stale.png"), await s.screenshot());
    assert.deepEqual(
      (await entries(s)).map((e) => e.state),
      ["stale", "stale"],
      "the entries stay stale (no later listing judged them fresh again)",
    );
  } finally {
    await s.end().catch(() => {});
  }
  // The command line agrees (`provenance` exits non-zero for a stale figure: its JSON says why).
  const asked = spawnSync(APP, ["provenance", second, "--src", data, "--json"]);
  const record = JSON.parse(asked.stdout.toString());
  assert.equal(record.stale, true, "the last edit made the redrawn figure stale again");
  assert.equal(asked.status, 1, "provenance exits 1 for a stale figure");
  fs.rmSync(data, { recursive: true, force: true });
});
