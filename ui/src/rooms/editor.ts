// The Code room: CodeMirror 6 with Python highlighting and the Layer-1 check as a linter
// (inline underline, gutter marker, the instructional message on hover), and the check's
// verdict beside it. No autocompletion and no auto-closing brackets: pasted or typed code
// stays exactly as written, and Tab is left to move the focus (keyboard users are not
// trapped).

import { invoke } from "@tauri-apps/api/core";
import { EditorState, type Extension } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
import { type Diagnostic, lintGutter, linter, forceLinting } from "@codemirror/lint";
import { python } from "@codemirror/lang-python";
import { tags as t } from "@lezer/highlight";
import type { CheckView, Violation } from "../bindings";
import { $, showMessage } from "../dom";
import * as draft from "../draft";
import * as state from "../state";

// The starter code of earlier versions (it read the example folder's spectrum.npy): a
// draft that is still exactly this is no one's work, and gives way to the folder's own.
const OLD_STARTER = `# Read data with srcpath("file"); save the figure to OUT.
# np, plt and loadmat are already imported.
spectrum = np.load(srcpath("spectrum.npy"))
plt.plot(spectrum[0], spectrum[1])
plt.xlabel("wavelength (nm)")
plt.ylabel("counts")
plt.savefig(OUT)
`;

const highlight = HighlightStyle.define([
  { tag: t.keyword, color: "var(--syn-keyword)" },
  { tag: [t.string, t.special(t.string)], color: "var(--syn-string)" },
  { tag: [t.number, t.bool, t.null], color: "var(--syn-number)" },
  { tag: t.comment, color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "var(--syn-function)" },
  { tag: [t.definition(t.variableName), t.className], color: "var(--syn-def)" },
  { tag: t.operator, color: "var(--syn-operator)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "0.95rem", backgroundColor: "var(--bg-input)", color: "var(--fg)" },
  ".cm-content": { fontFamily: "var(--mono)", caretColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--bg-pane)", color: "var(--fg-muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "-2px" },
  ".cm-selectionBackground, &.cm-focused .cm-selectionBackground": { backgroundColor: "var(--selection) !important" },
  ".cm-tooltip": { backgroundColor: "var(--bg-pane)", color: "var(--fg)", border: "1px solid var(--border)", maxWidth: "38rem" },
  ".cm-diagnostic": { whiteSpace: "pre-wrap" },
});

/** Character range of a violation at 1-based (line, col): the word there, else one char. */
function rangeOf(view: EditorView, v: Violation): { from: number; to: number } {
  const doc = view.state.doc;
  const lineNo = Math.min(Math.max(v.line, 1), doc.lines);
  const line = doc.line(lineNo);
  const from = Math.min(line.from + Math.max(v.col - 1, 0), line.to);
  let to = from;
  while (to < line.to && /[\w.]/.test(doc.sliceString(to, to + 1))) to++;
  if (to === from) to = Math.min(line.to, from + 1);
  if (to === from && line.length > 0) return { from: line.from, to: line.to };
  return { from, to };
}

export interface Editor {
  code(): string;
  setCode(text: string): void;
  /**
   * Ask the app for the data folder's starter code (its first table or array, plotted) and
   * put it in — unless the editor holds the person's own code: only an empty editor or an
   * untouched starter gives way. `#editor[data-starter]` says when it has been decided.
   */
  offerStarter(): Promise<void>;
}

/** The editor in #editor with the code of the last session (else empty until the folder's
 * starter code arrives); `onRun` is Ctrl+Enter. */
export function mountEditor(onRun: () => void): Editor {
  const host = $("editor");
  const view = createView(host, draft.savedCode() ?? "", onRun);
  const code = () => view.state.doc.toString();
  function setCode(text: string) {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    forceLinting(view);
  }
  const untouched = () => {
    const now = code();
    return now.trim() === "" || now === draft.savedStarter() || now === OLD_STARTER;
  };
  let asked = 0;
  return {
    code,
    setCode,
    async offerStarter() {
      const mine = ++asked;
      delete host.dataset.starter;
      if (!state.settings().folder || !untouched()) {
        host.dataset.starter = "kept";
        return;
      }
      const before = code();
      let starter: string;
      try {
        starter = await invoke<string>("starter_code");
      } catch (e) {
        // The folder cannot be read (the tree says why): the editor stays as it is.
        console.warn("no starter code:", e);
        host.dataset.starter = "none";
        return;
      }
      if (mine !== asked) return; // another folder was chosen meanwhile
      // Typed into (or emptied) while the folder was being read: that is the person's code now.
      if (code() !== before) {
        host.dataset.starter = "kept";
        return;
      }
      draft.saveStarter(starter);
      setCode(starter);
      host.dataset.starter = "set";
    },
  };
}

/** The verdict on `code` (null: nothing to check) into the label, the message and the state. */
function judged(code: string, result: CheckView | null) {
  const label = $("check-state");
  if (result === null) {
    label.textContent = "";
    label.className = "check";
  } else if (result.ok) {
    label.textContent = "✓ Check passed";
    label.className = "check ok";
    if (!state.isRunning() && $("messages").classList.contains("check-hint")) showMessage("");
  } else {
    const n = result.errors.length;
    label.textContent = `✗ ${n} problem${n === 1 ? "" : "s"}: not allowed to run`;
    label.className = "check bad";
    if (!state.isRunning()) {
      showMessage(result.hint ?? "");
      $("messages").classList.add("check-hint");
    }
  }
  state.setVerdict({ ok: result?.ok ?? null, text: code });
}

function createView(parent: HTMLElement, initial: string, onRun: () => void): EditorView {
  const lint = linter(
    async (view): Promise<Diagnostic[]> => {
      const code = view.state.doc.toString();
      if (code.trim() === "") {
        judged(code, null);
        return [];
      }
      const result = await invoke<CheckView>("check_code", { code });
      // The document may have changed while the check ran; the linter discards stale answers,
      // and the Run button compares the judged text itself.
      if (view.state.doc.toString() !== code) return [];
      judged(code, result);
      return result.errors.map((v) => ({
        ...rangeOf(view, v),
        severity: "error" as const,
        source: v.rule,
        message: v.message,
      }));
    },
    { delay: 300 },
  );
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    syntaxHighlighting(highlight),
    python(),
    lint,
    lintGutter(),
    theme,
    EditorView.contentAttributes.of({ "aria-label": "Python code", spellcheck: "false" }),
    keymap.of([
      { key: "Mod-Enter", run: () => (onRun(), true), preventDefault: true },
      ...defaultKeymap,
      ...historyKeymap,
    ]),
    EditorView.updateListener.of((u) => {
      // Until the new text is checked the old verdict is stale: Run stays as it was.
      if (u.docChanged) {
        draft.saveCode(u.state.doc.toString());
        state.codeEdited();
      }
    }),
  ];
  return new EditorView({
    state: EditorState.create({ doc: initial, extensions }),
    parent,
  });
}
