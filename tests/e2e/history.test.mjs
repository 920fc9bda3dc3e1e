// The window's history — the lab notebook — in the real webview: every entry shows its
// picture (after a restart too), selecting an older entry shows that figure and loads its
// code without arming an overwrite, a data file edited while the window is open marks its
// figure stale with no run in between, and "Re-run stale" puts the redrawn figure in the
// history and in the session's gallery. Run with
//   PDFAGENT_E2E_SUITE=tests/e2e/history.test.mjs scripts/test-e2e
// (a private XDG_DATA_HOME per run: the history lives in the app's data folder).

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
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
  await s.waitFor(
    "the figure",
    "const i = document.getElementById('figure-img'); return !i.hidden && i.src !== arguments[0] && i.complete && i.naturalWidth > 0",
    { timeout: 180000 },
    before,
  );
  return s.exec("return document.getElementById('figure-info').title");
}

/** Click the history entry of `file` (a real click, on the element WebDriver found). */
async function selectEntry(s, file) {
  const files = await s.exec("return [...document.querySelectorAll('#history button')].map(b => b.dataset.file)");
  const index = files.indexOf(file);
  assert.ok(index >= 0, `${file} is in the history`);
  await s.click((await s.findAll("#history button"))[index]);
}

const entries = (s) =>
  s.exec("return [...document.querySelectorAll('#history button')].map(b => ({file: b.dataset.file, state: b.dataset.state}))");

/** Every history entry's thumbnail decoded by the webview (the picture of each entry). */
const thumbnailsShown = (s, count) =>
  s.waitFor(
    `${count} thumbnails`,
    `const imgs = [...document.querySelectorAll('#history button img.history-thumb')];
     return imgs.length === arguments[0] && imgs.every(i => i.complete && i.naturalWidth > 0);`,
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
    first = await runFigure(s, "history-e2e", line("History"));
    second = await runFigure(s, "scatter-e2e", scatter);
    await s.waitFor("both history entries", "return document.querySelectorAll('#history button').length === 2");
    assert.deepEqual(await entries(s), [
      { file: second, state: "fresh" },
      { file: first, state: "fresh" },
    ]);
    await thumbnailsShown(s, 2);

    // Selecting the older entry shows its figure and loads its code; the name field gets a
    // free name, so the next Run cannot replace it.
    await selectEntry(s, first);
    await figureShown(s, first);
    const code = await s.exec("return document.querySelector('.cm-content').innerText");
    assert.equal(code.replace(/\n+$/, ""), line("History").join("\n"), "the entry's code is in the editor");
    const name = await s.exec("return document.getElementById('fig-name').value");
    assert.notEqual(name, "history-e2e", "selecting an entry does not arm an overwrite of its figure");
    const firstBytes = fs.readFileSync(first);
    await s.click(await s.find("#run"));
    await s.waitFor(
      "the run from the entry",
      "const t = document.getElementById('stage').textContent; return t.startsWith('Done') && t.includes(arguments[0])",
      { timeout: 180000 },
      name,
    );
    assert.deepEqual(fs.readFileSync(first), firstBytes, "running from an older entry left its figure as it was");
    await s.waitFor("three history entries", "return document.querySelectorAll('#history button').length === 3");
    await thumbnailsShown(s, 3);
    nameAtClose = await s.exec("return document.getElementById('fig-name').value");
  } finally {
    await s.end().catch(() => {});
  }
  await sleep(1000);
  // The data change while the app is closed.
  fs.appendFileSync(path.join(data, "bands.csv"), "3.5,1,1,1\n");

  s = await open(data);
  try {
    // After a restart: every entry with its picture, all stale (they all read bands.csv).
    await s.waitFor("the history after the restart", "return document.querySelectorAll('#history button').length === 3");
    assert.deepEqual(
      (await entries(s)).map((e) => e.state),
      ["stale", "stale", "stale"],
    );
    await thumbnailsShown(s, 3);
    assert.equal(await s.exec("return document.getElementById('fig-name').value"), nameAtClose, "the name is back");
    await selectEntry(s, second);
    await figureShown(s, second);
    fs.writeFileSync(path.join(SCREENS, "20-history-stale.png"), await s.screenshot());

    // "Re-run stale": the redrawn figures land in the session's gallery (empty after the
    // restart) and in the history, fresh, with their new pictures.
    const secondBefore = fs.readFileSync(second);
    assert.equal(await s.exec("return document.getElementById('history-rerun').disabled"), false);
    await s.click(await s.find("#history-rerun"));
    await s.waitFor("the re-run", "return document.getElementById('history-progress').textContent.includes('3 of 3 redrawn')", { timeout: 300000 });
    await s.waitFor(
      "every entry to be fresh",
      "const b = [...document.querySelectorAll('#history button')]; return b.length === 3 && b.every(e => e.dataset.state === 'fresh')",
    );
    await thumbnailsShown(s, 3);
    await s.waitFor(
      "the redrawn figures in the gallery",
      `const shown = [...document.querySelectorAll('#gallery button')]
         .filter(b => { const i = b.querySelector('img'); return i && i.complete && i.naturalWidth > 0; })
         .map(b => b.dataset.path);
       return shown.length === 3 && shown.includes(arguments[0]) && shown.includes(arguments[1]);`,
      {},
      first,
      second,
    );
    assert.notDeepEqual(fs.readFileSync(second), secondBefore, "the figure file was redrawn");

    // Live staleness: a data file edited while the window is open marks the figures that
    // read it stale, with no run in between (the product promises 2 s; the bound here is
    // generous so a loaded machine does not fail the suite, and the time is printed).
    const edited = Date.now();
    fs.appendFileSync(path.join(data, "bands.csv"), "4.5,2,2,2\n");
    await s.waitFor(
      "the entries to turn stale without a run",
      "const b = [...document.querySelectorAll('#history button')]; return b.length === 3 && b.every(e => e.dataset.state === 'stale')",
      { timeout: 20000, interval: 50 },
    );
    console.log(`history: stale shown ${Date.now() - edited} ms after the data file was written`);
    assert.equal(await s.exec("return document.getElementById('stage').textContent.startsWith('Running')"), false);
    fs.writeFileSync(path.join(SCREENS, "21-history-live-stale.png"), await s.screenshot());
  } finally {
    await s.end().catch(() => {});
  }
  const record = JSON.parse(execFileSync(APP, ["provenance", second, "--src", data, "--json"]).toString());
  assert.equal(record.stale, true, "the last edit made the redrawn figure stale again");
  fs.rmSync(data, { recursive: true, force: true });
});
