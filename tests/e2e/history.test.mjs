// The window's history across a restart, in the real webview: make a figure, close the
// app, change a data file, start it again — the editor's code and the name are back, the
// figure and its code are there, marked stale; "Re-run stale" redraws it and it is fresh. Run with
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

const entries = (s) =>
  s.exec("return [...document.querySelectorAll('#history button')].map(b => ({file: b.dataset.file, state: b.dataset.state}))");

test("history survives a restart, shows a stale figure and re-runs it", { timeout: 600000 }, async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "pdfagent-history-"));
  fs.cpSync(process.env.PDFAGENT_DATA, data, { recursive: true });
  const lines = [
    "import pandas as pd",
    'bands = pd.read_csv("bands.csv")',
    'plt.plot(bands["k"], bands.iloc[:, 1])',
    'plt.title("History")',
    "plt.savefig(OUT)",
  ];
  let s = await open(data);
  let figure;
  let nameAtClose;
  try {
    await $name(s, "history-e2e");
    await typeCode(s, lines);
    await s.waitFor("the check to pass", "return document.getElementById('check-state').textContent.includes('passed')");
    await s.click(await s.find("#run"));
    await s.waitFor("the figure", "const i = document.getElementById('figure-img'); return !i.hidden && i.complete && i.naturalWidth", { timeout: 180000 });
    figure = await s.exec("return document.getElementById('figure-info').title");
    await s.waitFor("the history entry", "return document.querySelectorAll('#history button').length === 1");
    assert.deepEqual(await entries(s), [{ file: figure, state: "fresh" }]);
    // What the editor and the name field hold when the window closes (after a run the
    // window has already suggested the next name): a restart must bring both back.
    await s.waitFor("the next name suggested", "return document.getElementById('fig-name').value !== 'history-e2e'");
    nameAtClose = await s.exec("return document.getElementById('fig-name').value");
  } finally {
    await s.end().catch(() => {});
  }
  await sleep(1000);
  // The data change while the app is closed.
  fs.appendFileSync(path.join(data, "bands.csv"), "3.5,1,1,1\n");
  const before = fs.readFileSync(figure);

  s = await open(data);
  try {
    await s.waitFor("the history after the restart", "return document.querySelectorAll('#history button').length === 1");
    assert.deepEqual(await entries(s), [{ file: figure, state: "stale" }]);
    // The draft (ui/src/draft.ts): the code and the name are back before anything is
    // clicked, as after an update's "restart it".
    const draftCode = await s.exec("return document.querySelector('.cm-content').innerText");
    assert.equal(draftCode.replace(/\n+$/, ""), lines.join("\n"), "the code typed before the restart is back");
    assert.equal(await s.exec("return document.getElementById('fig-name').value"), nameAtClose, "the name is back");
    await s.click(await s.find("#history button"));
    const code = await s.exec("return document.querySelector('.cm-content').innerText");
    assert.equal(code.replace(/\n+$/, ""), lines.join("\n"), "the figure's code is back in the editor");
    assert.equal(await s.exec("return document.getElementById('fig-name').value"), "history-e2e");
    assert.equal(await s.exec("return document.getElementById('history-rerun').disabled"), false);
    fs.writeFileSync(path.join(SCREENS, "20-history-stale.png"), await s.screenshot());
    await s.click(await s.find("#history-rerun"));
    await s.waitFor("the re-run", "return document.getElementById('history-progress').textContent.includes('1 of 1 redrawn')", { timeout: 180000 });
    await s.waitFor("the entry to be fresh", "return document.querySelector('#history button')?.dataset.state === 'fresh'");
    fs.writeFileSync(path.join(SCREENS, "21-history-rerun.png"), await s.screenshot());
  } finally {
    await s.end().catch(() => {});
  }
  const after = fs.readFileSync(figure);
  assert.notDeepEqual(after, before, "the figure file was redrawn");
  const record = JSON.parse(execFileSync(APP, ["provenance", figure, "--src", data, "--json"]).toString());
  assert.equal(record.stale, false);
  fs.rmSync(data, { recursive: true, force: true });
});

async function $name(s, name) {
  const input = await s.find("#fig-name");
  await s.click(input);
  await s.type(input, Keys.CONTROL + "a" + Keys.CONTROL + Keys.BACKSPACE + name);
}
