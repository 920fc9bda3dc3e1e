// The editor's code and the figure name, kept in the webview's storage as they change, so
// that a restart — after an update ("PDFAgent was updated while this window was open"), or
// any close — brings them back. Storage that refuses (full, or switched off) only means
// they are not kept.

const CODE = "pdfagent.draft.code";
const NAME = "pdfagent.draft.name";
const STARTER = "pdfagent.draft.starter";

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not kept: the window works on without it.
  }
}

/** The code in the editor when the window was last open (null: none kept). */
export const savedCode = (): string | null => read(CODE);
export const saveCode = (code: string) => write(CODE, code);

/** The figure name when the window was last open (null: none kept). */
export const savedName = (): string | null => read(NAME);
export const saveName = (name: string) => write(NAME, name);

/**
 * The starter code last put into the editor: while the editor still holds exactly this, it
 * is no one's draft, and a new folder's starter replaces it.
 */
export const savedStarter = (): string | null => read(STARTER);
export const saveStarter = (code: string) => write(STARTER, code);
