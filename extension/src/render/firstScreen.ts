// Splits a render where the first screen ends, so the panel can paint that part before it parses
// the rest of a long review. The split falls between top-level blocks, where markdown-it's output
// for the two halves joined is the output for the whole.

import type MarkdownIt from 'markdown-it';

/** Source lines that more than fill a first screen on any panel height people use. */
export const FIRST_SCREEN_LINES = 200;

export interface SplitRender {
  readonly html: string;
  /** Where in `html` the first screen's blocks end; absent when the review fits in one. */
  readonly firstScreen?: number;
}

export function renderFirstScreenFirst(md: MarkdownIt, tokens: MarkdownIt.Token[], env: object): SplitRender {
  const split = firstBlockFrom(tokens, FIRST_SCREEN_LINES);
  if (split === undefined) {
    return { html: md.renderer.render(tokens, md.options, env) };
  }
  const head = md.renderer.render(tokens.slice(0, split), md.options, env);
  const tail = md.renderer.render(tokens.slice(split), md.options, env);
  return { html: head + tail, firstScreen: head.length };
}

/** The index of the first top-level block that starts on or after `line`, if any follows it. */
function firstBlockFrom(tokens: readonly MarkdownIt.Token[], line: number): number | undefined {
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i];
    // A top-level opening (or self-contained) block token, with the block before it closed.
    if (token.level === 0 && token.nesting !== -1 && token.map && token.map[0] >= line) return i;
  }
  return undefined;
}
