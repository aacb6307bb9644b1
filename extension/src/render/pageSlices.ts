// Cuts a review's page into slices that the panel adds one at a time: the first screen, then slices
// of about SLICE_CHARS, each of at most SLICE_ELEMENTS elements. The panel parses a slice in one
// task of the thread it shares with the whole workbench (in code-server, its webviews run on the
// workbench's thread), so no slice may be large; the posts are cheap beside that. Cuts fall between
// top-level blocks, where markdown-it's output for the parts joined is its output for the whole.

import type MarkdownIt from 'markdown-it';
import { RENDER_BUDGET } from '../../../shared/reviewBudget';
import { isElement } from './renderBudget';

/** Source lines that more than fill a first screen on any panel height people use. */
export const FIRST_SCREEN_LINES = 200;
/** A slice after the first screen: what the panel parses, out of the document, in a few frames' time. */
export const SLICE_CHARS = 256 * 1024;
/** Elements that more than fill a first screen, however few lines they came from (one long paragraph). */
export const FIRST_SCREEN_ELEMENTS = 2000;
/** Elements in one slice at most: what the panel parses and styles in one task. One top-level block always fits. */
export const SLICE_ELEMENTS = RENDER_BUDGET.blockElements.limit;
/** Top-level tokens in the second slice; later slices are sized by the HTML the ones before made. */
const FIRST_GUESS_TOKENS = 2000;

export interface SlicedPage {
  readonly html: string;
  /** Where in `html` each slice but the last ends, ascending; absent when the page is one slice. */
  readonly slices?: readonly number[];
}

export interface SliceOptions {
  /** The env `tokens` were parsed with: the render rules read it. */
  readonly env: object;
  /** The tokens start the page, so the first slice is its first screen (else they continue a page). */
  readonly firstScreen?: boolean;
  /** Told each slice as soon as it is written, in order. */
  readonly onSlice?: (html: string) => void;
}

export function renderInSlices(md: MarkdownIt, tokens: MarkdownIt.Token[], options: SliceOptions): SlicedPage {
  const { env } = options;
  const render = (from: number, to: number) => md.renderer.render(tokens.slice(from, to), md.options, env);
  const parts: string[] = [];
  const emit = (html: string) => {
    parts.push(html);
    options.onSlice?.(html);
    return html;
  };
  const { starts, elementsBefore } = topLevelStarts(tokens);
  // The index in `starts` of where the slice being written starts (-1: the first token).
  let next = -1;
  let at = 0;
  if (options.firstScreen ?? true) {
    next = starts.findIndex(
      (index, k) => tokens[index].map![0] >= FIRST_SCREEN_LINES || elementsBefore[k] >= FIRST_SCREEN_ELEMENTS,
    );
    if (next === -1) return { html: emit(render(0, tokens.length)) };
    at = starts[next];
    emit(render(0, at));
  }
  const elementsAt = (k: number) => (k < 0 ? 0 : elementsBefore[k]);
  let guess = FIRST_GUESS_TOKENS;
  while (at < tokens.length) {
    // The first block start at least `guess` tokens on, or the end; sooner if the slice would pass SLICE_ELEMENTS.
    let k = next + 1;
    while (k < starts.length && starts[k] < at + guess) k++;
    while (k > next + 1 && elementsBefore[k] - elementsAt(next) > SLICE_ELEMENTS) k--;
    next = k;
    const to = next < starts.length ? starts[next] : tokens.length;
    const html = emit(render(at, to));
    // Aim the next slice at SLICE_CHARS, from this one's HTML per token, within sane bounds.
    guess = Math.max(16, Math.min(1_000_000, Math.round(((to - at) * SLICE_CHARS) / Math.max(html.length, 1))));
    at = to;
  }
  return joinSlices(parts);
}

/** The page that `parts`, in order, make. */
export function joinSlices(parts: readonly string[]): SlicedPage {
  if (parts.length <= 1) return { html: parts[0] ?? '' };
  const slices: number[] = [];
  let end = 0;
  for (const part of parts.slice(0, -1)) slices.push((end += part.length));
  return { html: parts.join(''), slices };
}

/**
 * The indexes of top-level opening (or self-contained) block tokens after the first, and the
 * elements (inline children included) before each, then before the end.
 */
function topLevelStarts(tokens: readonly MarkdownIt.Token[]): { starts: number[]; elementsBefore: number[] } {
  const starts: number[] = [];
  const elementsBefore: number[] = [];
  let elements = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (i > 0 && token.level === 0 && token.nesting !== -1 && token.map) {
      starts.push(i);
      elementsBefore.push(elements);
    }
    if (isElement(token)) elements++;
    for (const child of token.children ?? []) if (isElement(child)) elements++;
  }
  elementsBefore.push(elements);
  return { starts, elementsBefore };
}
