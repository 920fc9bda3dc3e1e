// The window: one room per panel (rooms/), sharing what they must through state.ts. Every
// call into the app goes through `invoke` to a command the capabilities grant; nothing here
// reads files itself or loads anything from the network. The types of what the app answers
// are generated from its Rust types (bindings.ts).
//
//   rooms/data.ts      data folder, file tree, preview
//   rooms/editor.ts    the code editor and the live Layer-1 check
//   rooms/run.ts       Run/Cancel, stage and time, the figure shown with its run and warnings
//   rooms/gallery.ts   this session's figures
//   rooms/history.ts   the folder's history: every figure with its picture, live staleness,
//                      Re-run stale
//   rooms/settings.ts  figures folder, limits, the MCP client configuration
//   rooms/selftest.ts  the selftest and its report

import { invoke } from "@tauri-apps/api/core";
import type { StateView } from "./bindings";
import { errorText, showMessage } from "./dom";
import { mountData } from "./rooms/data";
import { mountEditor } from "./rooms/editor";
import { mountGallery } from "./rooms/gallery";
import { mountHistory } from "./rooms/history";
import { type RunRoom, mountRun } from "./rooms/run";
import { mountSelftest } from "./rooms/selftest";
import { mountSettings } from "./rooms/settings";
import * as state from "./state";

// Content-Security-Policy refusals are counted where the end-to-end suite can see them: the
// window must work entirely within its policy.
const cspViolations: string[] = [];
document.addEventListener("securitypolicyviolation", (e) => {
  cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`);
  document.documentElement.dataset.cspViolations = JSON.stringify(cspViolations);
  console.warn("CSP refused:", e.effectiveDirective, e.blockedURI);
});

// Select-all belongs to the editor (CodeMirror's own) and the text fields: anywhere else
// it would select the whole window's text, which nothing here can use.
document.addEventListener("keydown", (e) => {
  if (e.key.toLowerCase() !== "a" || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest(".cm-editor, input, textarea, [contenteditable='true']")) return;
  e.preventDefault();
});

let run: RunRoom | null = null;
// The editor starts checking its starter code at once; Ctrl+Enter runs once Run is mounted.
const editor = mountEditor(() => void run?.run());

async function start() {
  state.setSettings(await invoke<StateView>("app_state"));
  const data = mountData();
  await data.loadTree();
  // The first Run works on the folder chosen: its starter code reads the folder's own data.
  const starter = editor.offerStarter();
  state.on("folder", () => void editor.offerStarter());
  run = await mountRun(editor);
  mountSelftest();
  mountSettings();
  mountGallery();
  await mountHistory((code, name) => {
    editor.setCode(code);
    void run?.startFrom(name);
  });
  await starter;
  document.body.dataset.ready = "true";
}

start().catch((e) => showMessage(`The window could not start: ${errorText(e)}`));
