// The window follows the system's dark preference: run with GTK_THEME=Adwaita:dark
// (scripts/test-e2e --dark). Saves target/e2e-screens/11-dark.png.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Session, sleep } from "./webdriver.mjs";

test("dark theme follows the system", async () => {
  const s = await Session.start(process.env.PDFAGENT_WEBDRIVER, {
    "tauri:options": { application: process.env.PDFAGENT_APP, args: ["--open", process.env.PDFAGENT_DATA] },
  });
  try {
    await s.waitFor("the window to start", "return document.body.dataset.ready === 'true'");
    await s.waitFor("the file tree", "return document.querySelectorAll('#tree .tree-item').length > 0");
    assert.equal(await s.exec("return matchMedia('(prefers-color-scheme: dark)').matches"), true);
    const bg = await s.exec("return getComputedStyle(document.body).backgroundColor");
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `a dark background, got ${bg}`);
    await sleep(500);
    fs.writeFileSync(path.join(process.env.PDFAGENT_SCREENS, "11-dark.png"), await s.screenshot());
  } finally {
    await s.end().catch(() => {});
  }
});
