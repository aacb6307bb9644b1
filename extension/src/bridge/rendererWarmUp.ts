// Warms the render worker before an assistant's first review: a worker that has just started runs
// its code cold (parse, file checks, findings, highlighting), so the first review it renders is much
// slower than the ones after it. A connected assistant may present soon, so a small review of every
// kind of block is rendered then, and its result thrown away.

import type { ReviewRenderer } from '../render/reviewRenderer';

/** At most one warm-up in this long: assistants that connect together warm the worker once. */
const WARM_UP_EVERY_MS = 30_000;

/**
 * A review with what a real one has: headings, findings with severity labels, references in prose,
 * in code spans and in links, a list, a table and a code block. Long enough to be rendered in the
 * worker, not on the window's thread, and with references to files that are not there, so that no file is read.
 */
export const WARM_UP_REVIEW = Array.from(
  { length: 24 },
  (_, i) =>
    `## Finding ${i}\n\n` +
    `**bug**: the retry in warm-up/missing-${i}.ts:${i + 1} never backs off; compare \`warm-up/missing-${i}.ts:10-12\` ` +
    `and [the helper](warm-up/missing-${i}.ts#L20).\n\n` +
    `- nit: warm-up/missing-${i}.ts:3 shadows \`value\`\n- see http://example.com/${i}\n\n` +
    '| file | line |\n| --- | --- |\n| a.ts | 1 |\n\n' +
    '```ts\nfunction retry(n: number): number {\n  return n > 0 ? retry(n - 1) : 0;\n}\n```\n',
).join('\n');

export class RendererWarmUp {
  private lastAt = -Infinity;

  constructor(private readonly renderer: Pick<ReviewRenderer, 'renderFragment'>) {}

  /** Renders WARM_UP_REVIEW unless that was done a moment ago; a failure is of no consequence. */
  warm(): void {
    if (performance.now() - this.lastAt < WARM_UP_EVERY_MS) return;
    this.lastAt = performance.now();
    this.renderer.renderFragment(WARM_UP_REVIEW, undefined).catch(() => undefined);
  }
}
