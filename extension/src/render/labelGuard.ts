// Keeps `[` and `![` with no `]` after them from costing a label search each: markdown-it looks for
// the label's end from every opener (up to maxNesting levels deep), which is quadratic in a long run
// of openers.

import type MarkdownIt from 'markdown-it';

const OPEN_BRACKET = 0x5b;
const BANG = 0x21;
const CLOSE_BRACKET = 0x5d;

/** The next `]` at or after a position, remembered so a run of openers finds it once. */
const NEXT_CLOSE = Symbol('redline.nextClose');
interface NextClose {
  from: number;
  at: number;
}

/**
 * An inline rule that runs just before `link`: an opener whose label cannot close (no `]` before
 * the end of the inline text) is plain text, exactly as markdown-it would make it after searching.
 */
function labelGuard(state: MarkdownIt.StateInline, silent: boolean): boolean {
  const code = state.src.charCodeAt(state.pos);
  const opener =
    code === OPEN_BRACKET ? 1 : code === BANG && state.src.charCodeAt(state.pos + 1) === OPEN_BRACKET ? 2 : 0;
  if (opener === 0 || nextClose(state, state.pos + opener) < state.posMax) return false;
  if (!silent) state.pending += state.src.slice(state.pos, state.pos + opener);
  state.pos += opener;
  return true;
}

function nextClose(state: MarkdownIt.StateInline, from: number): number {
  const env = state as unknown as { [NEXT_CLOSE]?: NextClose };
  const known = env[NEXT_CLOSE];
  if (known && from >= known.from && (from <= known.at || known.at === -1))
    return known.at === -1 ? Infinity : known.at;
  let at = -1;
  for (let i = from; i < state.src.length; i++) {
    if (state.src.charCodeAt(i) === CLOSE_BRACKET) {
      at = i;
      break;
    }
  }
  env[NEXT_CLOSE] = { from, at };
  return at === -1 ? Infinity : at;
}

export function installLabelGuard(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'redline_label_guard', labelGuard);
}
