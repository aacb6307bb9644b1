// Which code blocks of a render are highlighted. The render itself writes every block as escaped
// text, so a page reaches the panel without waiting for highlight.js; a block it admits here gets
// `data-highlight` (its grammar) and the panel highlights it when it nears the screen
// (webview/codeHighlighting.ts). The languages are shared/codeLanguages.ts; the grammars are not
// loaded here.

import { canHighlight } from '../../../shared/codeLanguages';

/** A longer block is shown plain: highlighting is for reading, and reading stops well before this. */
export const MAX_HIGHLIGHTED_BLOCK = 64 * 1024;
/** Per render: a review of many large blocks is highlighted up to here, the rest shown plain. */
export const MAX_HIGHLIGHTED_PER_RENDER = 1024 * 1024;

/** One render's highlighting: the blocks it gives the panel to highlight, with what is left of its budget. */
export class CodeHighlighter {
  private left = MAX_HIGHLIGHTED_PER_RENDER;

  /** Whether the panel is to highlight this block (a known language, within the limits); counts it if so. */
  admit(code: string, language: string): boolean {
    if (code.length > MAX_HIGHLIGHTED_BLOCK || code.length > this.left || !canHighlight(language)) return false;
    this.left -= code.length;
    return true;
  }
}
