// The Data room: the chosen data folder, its files as a tree, and a preview of the selected
// file — computed by the confined worker with a fixed script of ours (`preview_file`);
// images come as bytes and are shown from a `blob:` URL.

import { invoke } from "@tauri-apps/api/core";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import type { FolderEntry, FolderListing } from "../bindings";
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
  for (const entry of listing.entries) {
    const button = el("button", {
      type: "button",
      className: entry.dir ? "tree-item dir" : "tree-item file",
      textContent: entry.dir ? `▸ ${entry.name}` : entry.name,
    });
    button.setAttribute("role", "treeitem");
    button.dataset.path = entry.path;
    button.style.paddingLeft = `${0.5 + entry.depth * 1.1}rem`;
    if (entry.dir) {
      button.setAttribute("aria-expanded", "true");
    } else {
      button.append(el("span", { className: "size", textContent: fmtBytes(entry.size) }));
      button.addEventListener("click", () => void selectFile(entry, button));
    }
    const li = el("li", {}, button);
    li.setAttribute("role", "none");
    tree.append(li);
  }
  if (listing.entries.length === 0) treeNote.textContent = "The folder is empty.";
  if (listing.truncated) treeNote.textContent = "Some deep or numerous entries are not listed.";
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
    const preview = await invoke<Preview>("preview_file", { path: entry.path });
    if (seq !== previewSeq) return;
    let imageUrl: string | null = null;
    if (preview.kind === "image") {
      const bytes = await invoke<ArrayBuffer>("image_bytes", { path: entry.path });
      imageUrl = URL.createObjectURL(new Blob([bytes]));
    }
    if (seq !== previewSeq) return;
    renderPreview(pane, entry.name, preview, imageUrl);
  } catch (e) {
    if (seq !== previewSeq) return;
    pane.replaceChildren(el("p", { className: "error", textContent: errorText(e) }));
  }
}

// ---- the preview -----------------------------------------------------------------------
// `preview_file` answers with what the worker's preview script wrote (a JSON object per
// kind of file, not a Rust type): every value is read defensively and shown as text.

type Preview = Record<string, unknown>;

interface OutlineNode {
  key: string;
  type: string;
  len?: number;
  value?: string;
  children?: OutlineNode[];
}

function fmtShape(shape: unknown): string {
  return Array.isArray(shape) ? `(${shape.join(" × ")})` : String(shape);
}

function outline(node: OutlineNode): HTMLLIElement {
  const head = el("span", {}, el("strong", { textContent: node.key }), ` ${node.type}`);
  if (node.len !== undefined) head.append(` [${node.len}]`);
  if (node.value !== undefined) head.append(el("code", { textContent: ` ${node.value}` }));
  const li = el("li", {}, head);
  if (node.children?.length) li.append(el("ul", {}, ...node.children.map(outline)));
  return li;
}

export function renderPreview(pane: HTMLElement, name: string, p: Preview, imageUrl: string | null) {
  const parts: Node[] = [el("h3", { className: "preview-name", textContent: name })];
  switch (p.kind) {
    case "table": {
      const rows = (p.rows as string[][]) ?? [];
      const table = el("table", { className: "preview-table" });
      rows.forEach((row, i) => table.append(el("tr", {}, ...row.map((cell) => el(i === 0 ? "th" : "td", cell)))));
      const total = p.total_lines as number | null;
      parts.push(
        el("p", { className: "note", textContent: `First ${Math.max(rows.length - 1, 0)} rows${total ? ` of ${total - 1}` : ""} · delimiter ${JSON.stringify(p.delimiter)}` }),
        el("div", { className: "table-wrap" }, table),
      );
      break;
    }
    case "mat": {
      const vars = (p.variables as { name: string; shape: number[]; dtype: string }[]) ?? [];
      const table = el("table", { className: "preview-table vars" });
      table.append(el("tr", {}, el("th", "variable"), el("th", "shape"), el("th", "dtype")));
      for (const v of vars) {
        const tr = el("tr", {}, el("td", v.name), el("td", fmtShape(v.shape)), el("td", v.dtype));
        tr.dataset.variable = v.name;
        table.append(tr);
      }
      parts.push(el("p", { className: "note", textContent: `MATLAB file · ${vars.length} variable${vars.length === 1 ? "" : "s"}` }), table);
      if (p.note) parts.push(el("p", { className: "note", textContent: String(p.note) }));
      break;
    }
    case "npy":
      parts.push(
        el("p", { className: "npy-info", textContent: `NumPy array · shape ${fmtShape(p.shape)} · dtype ${String(p.dtype)}` }),
        el("p", { className: "note", textContent: `first values: ${((p.first as string[]) ?? []).join(", ")}` }),
      );
      break;
    case "json": {
      if (p.error) {
        parts.push(el("p", { className: "note", textContent: String(p.error) }));
        break;
      }
      parts.push(el("ul", { className: "outline" }, outline(p.outline as OutlineNode)));
      break;
    }
    case "image":
      if (imageUrl) parts.push(el("img", { className: "preview-image", src: imageUrl, alt: `Image ${name}` }));
      break;
    case "error":
      parts.push(el("p", { className: "error", textContent: String(p.error) }));
      break;
    default:
      parts.push(el("p", { className: "note", textContent: "No preview for this kind of file." }));
  }
  pane.replaceChildren(...parts);
}
