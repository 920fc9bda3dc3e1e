// Renders what the confined worker reported about a data file. Every value is inserted as
// text (never as HTML): file contents are data, not markup.

type Json = Record<string, unknown>;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function fmtShape(shape: unknown): string {
  return Array.isArray(shape) ? `(${shape.join(" × ")})` : String(shape);
}

interface OutlineNode {
  key: string;
  type: string;
  len?: number;
  value?: string;
  children?: OutlineNode[];
}

function outline(node: OutlineNode): HTMLLIElement {
  const li = el("li");
  const head = el("span");
  head.append(el("strong", node.key), ` ${node.type}`);
  if (node.len !== undefined) head.append(` [${node.len}]`);
  if (node.value !== undefined) head.append(el("code", ` ${node.value}`));
  li.append(head);
  if (node.children?.length) {
    const ul = el("ul");
    for (const c of node.children) ul.append(outline(c));
    li.append(ul);
  }
  return li;
}

export function renderPreview(pane: HTMLElement, name: string, p: Json, imageUrl: string | null) {
  const parts: Node[] = [el("h3", name, "preview-name")];
  switch (p.kind) {
    case "table": {
      const rows = (p.rows as string[][]) ?? [];
      const table = el("table", undefined, "preview-table");
      rows.forEach((row, i) => {
        const tr = el("tr");
        for (const cell of row) tr.append(el(i === 0 ? "th" : "td", cell));
        table.append(tr);
      });
      const wrap = el("div", undefined, "table-wrap");
      wrap.append(table);
      const total = p.total_lines as number | null;
      parts.push(el("p", `First ${Math.max(rows.length - 1, 0)} rows${total ? ` of ${total - 1}` : ""} · delimiter ${JSON.stringify(p.delimiter)}`, "note"), wrap);
      break;
    }
    case "mat": {
      const vars = (p.variables as { name: string; shape: number[]; dtype: string }[]) ?? [];
      const table = el("table", undefined, "preview-table vars");
      const head = el("tr");
      head.append(el("th", "variable"), el("th", "shape"), el("th", "dtype"));
      table.append(head);
      for (const v of vars) {
        const tr = el("tr");
        tr.dataset.variable = v.name;
        tr.append(el("td", v.name), el("td", fmtShape(v.shape)), el("td", v.dtype));
        table.append(tr);
      }
      parts.push(el("p", `MATLAB file · ${vars.length} variable${vars.length === 1 ? "" : "s"}`, "note"), table);
      if (p.note) parts.push(el("p", String(p.note), "note"));
      break;
    }
    case "npy":
      parts.push(
        el("p", `NumPy array · shape ${fmtShape(p.shape)} · dtype ${String(p.dtype)}`, "npy-info"),
        el("p", `first values: ${((p.first as string[]) ?? []).join(", ")}`, "note"),
      );
      break;
    case "json": {
      if (p.error) {
        parts.push(el("p", String(p.error), "note"));
        break;
      }
      const ul = el("ul", undefined, "outline");
      ul.append(outline(p.outline as OutlineNode));
      parts.push(ul);
      break;
    }
    case "image":
      if (imageUrl) {
        const img = el("img", undefined, "preview-image");
        img.src = imageUrl;
        img.alt = `Image ${name}`;
        parts.push(img);
      }
      break;
    case "error":
      parts.push(el("p", String(p.error), "error"));
      break;
    default:
      parts.push(el("p", "No preview for this kind of file.", "note"));
  }
  pane.replaceChildren(...parts);
}
