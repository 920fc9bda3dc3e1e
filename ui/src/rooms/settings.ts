// The Settings room: the figures folder, the time and memory limits, and the MCP client
// configuration for this executable and folders (to paste into a model's client).

import { invoke } from "@tauri-apps/api/core";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import type { StateView } from "../bindings";
import { $, errorText, showMessage } from "../dom";
import * as state from "../state";

export function mountSettings() {
  const dialog = $<HTMLDialogElement>("settings-dialog");
  const figures = $<HTMLInputElement>("set-figures");
  const timeout = $<HTMLInputElement>("set-timeout");
  const memory = $<HTMLInputElement>("set-memory");
  const error = $("settings-error");

  $("settings").addEventListener("click", () => {
    const s = state.settings();
    figures.value = s.figures;
    timeout.value = String(s.timeout_s);
    memory.value = String(s.memory_mb);
    memory.min = String(s.memory_range_mb[0]);
    memory.max = String(s.memory_range_mb[1]);
    error.hidden = true;
    $("mcp-snippet").textContent = s.mcp_config;
    dialog.showModal();
  });
  $("settings-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    invoke<StateView>("save_settings", {
      figures: figures.value,
      timeoutS: Number(timeout.value),
      memoryMb: Number(memory.value),
    })
      .then((next) => {
        state.setSettings(next);
        dialog.close();
      })
      .catch((e) => {
        error.textContent = errorText(e);
        error.hidden = false;
      });
  });
  $("settings-cancel").addEventListener("click", () => dialog.close());
  $("set-figures-choose").addEventListener("click", async () => {
    const picked = await openDialog({ directory: true, multiple: false });
    if (typeof picked === "string") figures.value = picked;
  });
  $("mcp-copy").addEventListener("click", () => {
    navigator.clipboard
      .writeText(state.settings().mcp_config)
      .then(() => showMessage("Copied the MCP configuration to the clipboard.", "info"))
      .catch((e) => showMessage(`Could not copy: ${errorText(e)}`));
  });
}
