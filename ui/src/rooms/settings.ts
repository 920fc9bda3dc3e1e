// The Settings room: the figures folder, the time and memory limits, and the MCP client
// configuration for this executable and folders (to paste into a model's client). Under the
// figures folder, the size of its store of earlier versions (nothing is pruned silently:
// the line says where they are and how to remove them).

import { invoke } from "@tauri-apps/api/core";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import type { StateView, StoreSize } from "../bindings";
import { $, confirmOn, errorText, fmtBytes, showMessage } from "../dom";
import * as state from "../state";

export function mountSettings() {
  const dialog = $<HTMLDialogElement>("settings-dialog");
  const figures = $<HTMLInputElement>("set-figures");
  const timeout = $<HTMLInputElement>("set-timeout");
  const memory = $<HTMLInputElement>("set-memory");
  const error = $("settings-error");
  const versionsSize = $("versions-size");

  // Measured when Settings opens and after each run (a run may keep a version).
  const showVersionsSize = () => {
    const folder = state.settings().figures;
    invoke<StoreSize>("versions_store_size")
      .then((size) => {
        versionsSize.dataset.versions = String(size.versions);
        versionsSize.textContent =
          size.versions === 0
            ? `Earlier versions kept: none yet (a run under an existing name keeps the figure it replaces in ${folder}/.pdfagent-versions).`
            : `Earlier versions kept: ${size.versions} ${size.versions === 1 ? "version" : "versions"} of ${size.names} ${size.names === 1 ? "name" : "names"}, ${fmtBytes(size.bytes)} (in ${folder}/.pdfagent-versions; \`pdfagent versions NAME --prune\` removes them).`;
      })
      .catch((e) => {
        delete versionsSize.dataset.versions;
        versionsSize.textContent = `Earlier versions kept: could not measure them (${errorText(e)}).`;
      });
  };
  state.on("running", () => {
    if (!state.isRunning()) showVersionsSize();
  });

  $("settings").addEventListener("click", () => {
    const s = state.settings();
    figures.value = s.figures;
    $("figures-default").textContent = s.figures_default;
    timeout.value = String(s.timeout_s);
    memory.value = String(s.memory_mb);
    memory.min = String(s.memory_range_mb[0]);
    memory.max = String(s.memory_range_mb[1]);
    error.hidden = true;
    $("mcp-snippet").textContent = s.mcp_config;
    showVersionsSize();
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
      .then(() => confirmOn($("mcp-copy"), "Copied"))
      .catch((e) => showMessage(`Could not copy: ${errorText(e)}`));
  });
}
