// The Data room: the chosen data folder, its files as a tree (`list_folder`: the engine's
// listing, which MCP's list_data gives too — links out of the folder are shown refused), and
// the selected file's description and preview (`preview_file`: the engine's inspection in the
// confined worker, whose text MCP's describe_data returns). Images come as bytes and are
// shown from a `blob:` URL.

import { invoke } from "@tauri-apps/api/core";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import type { FolderEntry, FolderListing, Inspection, OutlineNode, Preview } from "../bindings";
import { $, el, errorText, fmtBytes, showMessage } from "../dom";
import * as state from "../state";

export function mountData() {
  $("choose-folder").addEventListener("click", () => void chooseFolder());
  state.on("settings", showFolder);
  state.on("folder", () => {
    $("preview").replaceChildren(note("Select a file to preview it."));
    void loadTree();
  });
  showFolder();
  return { loadTree };
}

function note(text: string) {
  return el("p", { className: "note", textContent: text });
}

function showFolder() {
  const { folder } = state.settings();
  const label = $("folder-path");
  label.textContent = folder ?? "No data folder chosen";
  label.title = folder ?? "";
}

async function chooseFolder() {
  const { folder } = state.settings();
  const picked = await openDialog({ directory: true, multiple: false, defaultPath: folder ?? undefined });
  if (typeof picked !== "string") return;
  try {
    state.setSettings(await invoke("choose_folder", { path: picked }), true);
  } catch (e) {
    showMessage(errorText(e));
  }
}

async function loadTree() {
  const tree = $("tree");
  const treeNote = $("tree-note");
  tree.replaceChildren();
  treeNote.textContent = "";
  if (!state.settings().folder) {
    treeNote.textContent = "Choose the folder that holds your data.";
    return;
  }
  let listing: FolderListing;
  try {
    listing = await invoke<FolderListing>("list_folder");
  } catch (e) {
    treeNote.textContent = errorText(e);
    return;
  }
  for (const entry of listing.entries) tree.append(treeItem(entry));
  const notes: string[] = [];
  if (listing.entries.length === 0) notes.push("The folder is empty.");
  if (listing.left_out > 0) notes.push(`${listing.left_out} more entries are not listed.`);
  if (listing.not_entered > 0) notes.push(`${listing.not_entered} folders deeper down are not listed.`);
  if (listing.hidden > 0) notes.push(`${listing.hidden} hidden entries (names starting with “.”) are not listed.`);
  treeNote.textContent = notes.join(" ");
}

function treeItem(entry: FolderEntry): HTMLLIElement {
  const classes = ["tree-item", entry.dir ? "dir" : "file"];
  if (entry.refused) classes.push("refused");
  const button = el("button", {
    type: "button",
    className: classes.join(" "),
    textContent: entry.dir ? `${OPEN} ${entry.name}` : entry.name,
  });
  button.setAttribute("role", "treeitem");
  button.dataset.path = entry.path;
  button.style.paddingLeft = `${0.5 + entry.depth * 1.1}rem`;
  if (entry.link_to !== null) {
    button.append(el("span", { className: "link-to", textContent: ` → ${entry.link_to}` }));
    button.title = `a link to ${entry.link_to} inside the folder`;
  }
  if (entry.refused) {
    // Listed so nothing is silently missing, but never read: the engine refuses it too.
    button.setAttribute("aria-disabled", "true");
    button.dataset.refused = entry.refused;
    button.title = entry.refused;
    button.append(el("span", { className: "size", textContent: "refused" }));
  } else if (entry.dir) {
    button.setAttribute("aria-expanded", "true");
    button.addEventListener("click", () => toggleFolder(button, entry.depth));
  } else {
    button.append(el("span", { className: "size", textContent: fmtBytes(entry.bytes) }));
    button.addEventListener("click", () => void selectFile(entry, button));
  }
  const li = el("li", {}, button);
  li.setAttribute("role", "none");
  li.dataset.depth = String(entry.depth);
  return li;
}

// The arrow says what the folder is: down while its contents are shown, right when folded.
const OPEN = "▾";
const FOLDED = "▸";

/** Fold or unfold a folder: its contents are the entries after it that lie deeper. */
function toggleFolder(button: HTMLButtonElement, depth: number) {
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  const label = button.firstChild;
  if (label?.nodeType === Node.TEXT_NODE) label.textContent = (label.textContent ?? "").replace(/^[▸▾]/, open ? OPEN : FOLDED);
  let next = button.parentElement?.nextElementSibling as HTMLElement | null;
  // Unfolding shows the direct contents; a subfolder folded before stays folded.
  let foldedBelow: number | null = null;
  while (next && Number(next.dataset.depth) > depth) {
    const d = Number(next.dataset.depth);
    if (foldedBelow !== null && d <= foldedBelow) foldedBelow = null;
    next.hidden = !open || foldedBelow !== null;
    const inner = next.querySelector<HTMLElement>(".tree-item.dir");
    if (open && foldedBelow === null && inner?.getAttribute("aria-expanded") === "false") foldedBelow = d;
    next = next.nextElementSibling as HTMLElement | null;
  }
}

// A later selection wins over a slower earlier preview.
let previewSeq = 0;

async function selectFile(entry: FolderEntry, button: HTMLElement) {
  for (const item of document.querySelectorAll(".tree-item[aria-selected]")) item.removeAttribute("aria-selected");
  button.setAttribute("aria-selected", "true");
  const seq = ++previewSeq;
  const pane = $("preview");
  pane.replaceChildren(note(`Reading ${entry.name}…`));
  try {
    const inspection = await invoke<Inspection>("preview_file", { path: entry.path });
    if (seq !== previewSeq) return;
    let imageUrl: string | null = null;
    if (inspection.preview?.kind === "image") {
      const bytes = await invoke<ArrayBuffer>("image_bytes", { path: entry.path });
      imageUrl = URL.createObjectURL(new Blob([bytes]));
    }
    if (seq !== previewSeq) return;
    renderPreview(pane, entry.name, inspection, imageUrl);
  } catch (e) {
    if (seq !== previewSeq) return;
    pane.replaceChildren(el("p", { className: "error", textContent: errorText(e) }));
  }
}

// ---- the preview -----------------------------------------------------------------------
// The structured part (typed: `Preview`, generated from the engine's types) above the
// description text, which is exactly what an agent gets from describe_data.

function fmtShape(shape: number[]): string {
  return `(${shape.join(" × ")})`;
}

function outline(node: OutlineNode): HTMLLIElement {
  const head = el("span", {}, el("strong", { textContent: node.key }), ` ${node.type}`);
  if (node.len !== null) head.append(` [${node.len}]`);
  if (node.value !== null) head.append(el("code", { textContent: ` ${node.value}` }));
  const li = el("li", {}, head);
  if (node.children.length) li.append(el("ul", {}, ...node.children.map(outline)));
  return li;
}

function structured(p: Preview, name: string, imageUrl: string | null): Node[] {
  switch (p.kind) {
    case "table": {
      const table = el("table", { className: "preview-table" });
      table.append(el("tr", {}, ...p.columns.map((c) => el("th", c))));
      for (const row of p.rows) table.append(el("tr", {}, ...row.map((c) => el("td", c))));
      const of = p.rows_total === null ? "" : ` of ${p.rows_total}`;
      const layout = p.separator === null ? "spreadsheet" : `${p.separator}-separated`;
      const header = p.header ? "header row" : "no header row";
      return [
        el("p", { className: "note", textContent: `First ${p.rows.length} rows${of} · ${layout} · ${header}` }),
        el("div", { className: "table-wrap" }, table),
      ];
    }
    case "variables": {
      const table = el("table", { className: "preview-table vars" });
      table.append(el("tr", {}, el("th", "variable"), el("th", "shape"), el("th", "class"), el("th", "dtype")));
      for (const v of p.variables) {
        const tr = el("tr", {}, el("td", v.name), el("td", fmtShape(v.shape)), el("td", v.class ?? ""), el("td", v.dtype ?? ""));
        tr.dataset.variable = v.name;
        table.append(tr);
      }
      const count = `${p.variables.length} variable${p.variables.length === 1 ? "" : "s"}`;
      return [el("p", { className: "note", textContent: count }), el("div", { className: "table-wrap" }, table)];
    }
    case "array":
      return [
        el("p", { className: "npy-info", textContent: `NumPy array · shape ${fmtShape(p.shape)} · dtype ${p.dtype}` }),
        el("p", { className: "note", textContent: `first values: ${p.first.join(", ")}` }),
      ];
    case "json":
      return [el("ul", { className: "outline" }, outline(p.outline))];
    case "image":
      return imageUrl ? [el("img", { className: "preview-image", src: imageUrl, alt: `Image ${name}` })] : [];
    case "none":
      return [];
    default: {
      // Every kind the engine sends is handled above (a new one fails the type check here).
      const unknown: never = p;
      return unknown;
    }
  }
}

export function renderPreview(pane: HTMLElement, name: string, inspection: Inspection, imageUrl: string | null) {
  const parts: Node[] = [el("h3", { className: "preview-name", textContent: name })];
  if (inspection.preview) parts.push(...structured(inspection.preview, name, imageUrl));
  parts.push(
    el("h4", { className: "preview-heading", textContent: "Description (what an agent reads)" }),
    el("pre", { id: "preview-text", className: "preview-text", textContent: inspection.text }),
  );
  pane.replaceChildren(...parts);
}
