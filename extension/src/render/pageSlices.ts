// Cuts a review's page into slices that the panel receives and adds one at a time: first the
// blocks of the first screen, then the rest in slices that start at about SLICE_CHARS and double
// up to MAX_SLICE_CHARS. A 25 MiB page posted whole held the extension host's thread for 400 ms
// while VS Code serialized it, and the panel's for seconds while it parsed it. Small slices first
// put the next screens in place at once; larger ones later keep the number of posts, each a
// round trip through VS Code, low. The cuts fall between top-level blocks, where markdown-it's
// output for the parts joined is its output for the whole.

import type MarkdownIt from 'markdown-it';

/** Source lines that more than fill a first screen on any panel height people use. */
export const FIRST_SCREEN_LINES = 200;
/** The first slice after the first screen: about what the panel parses, and VS Code serializes, within a frame. */
export const SLICE_CHARS = 256 * 1024;
/** The largest slice: about 30 ms of VS Code's serializing on the host's thread. */
export const MAX_SLICE_CHARS = 2 * 1024 * 1024;
/** Top-level tokens in the second slice; later slices are sized by the HTML the ones before made. */
const FIRST_GUESS_TOKENS = 2000;

export interface SlicedPage {
  readonly html: string;
  /** Where in `html` each slice but the last ends, ascending; absent when the page is one slice. */
  readonly slices?: readonly number[];
}

export function renderInSlices(md: MarkdownIt, tokens: MarkdownIt.Token[], env: object): SlicedPage {
  const render = (from: number, to: number) => md.renderer.render(tokens.slice(from, to), md.options, env);
  const starts = topLevelStarts(tokens);
  let next = starts.findIndex((index) => tokens[index].map![0] >= FIRST_SCREEN_LINES);
  if (next === -1) return { html: render(0, tokens.length) };
  const firstCut = starts[next];
  const parts = [render(0, firstCut)];
  let guess = FIRST_GUESS_TOKENS;
  let target = SLICE_CHARS;
  let at = firstCut;
  while (at < tokens.length) {
    // The first block start at least `guess` tokens on, or the end.
    while (next < starts.length && starts[next] < at + guess) next++;
    const to = next < starts.length ? starts[next] : tokens.length;
    const html = render(at, to);
    parts.push(html);
    // Aim the next slice at twice this one's target, from this one's HTML per token, within sane bounds.
    target = Math.min(target * 2, MAX_SLICE_CHARS);
    guess = Math.max(16, Math.min(1_000_000, Math.round(((to - at) * target) / Math.max(html.length, 1))));
    at = to;
  }
  const slices: number[] = [];
  let end = 0;
  for (const part of parts.slice(0, -1)) slices.push((end += part.length));
  return { html: parts.join(''), slices };
}

/** The indexes of top-level opening (or self-contained) block tokens after the first. */
function topLevelStarts(tokens: readonly MarkdownIt.Token[]): number[] {
  const starts: number[] = [];
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.level === 0 && token.nesting !== -1 && token.map) starts.push(i);
  }
  return starts;
}
