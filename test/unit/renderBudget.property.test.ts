// The render budget as a property: markdown generated from a grammar of what reviews are made of
// (and of what the audit found to be costly) is either shown within the element and memory bounds,
// or refused with what was over, by how much, and what to do; and a small review the worker
// refuses, the estimate before the parse refused first. Seeded, with a bounded number of runs,
// so that it runs the same in `npm test` on a busy machine; it prints what it saw.

import fc from 'fast-check';
import { LARGE_REVIEW_BYTES } from '../../shared/protocol';
import { budgetRefusal, MAX_RENDERED_HTML_BYTES, RENDER_BUDGET } from '../../shared/reviewBudget';
import { renderReview, type RenderedReview } from '../../extension/src/render/markdownRenderer';
import { RenderBudgetError } from '../../extension/src/render/pageBudget';
import { ReferenceResolver } from '../../extension/src/render/referenceResolver';
import { SLICE_ELEMENTS } from '../../extension/src/render/pageSlices';

const word = fc.constantFrom(
  'a',
  'review',
  'value',
  'handler',
  'x1',
  'snake_case',
  '10:30',
  'localhost:8080',
  '&amp;',
  '&copy;',
  '&#35;',
  'café',
);
const fileReference = fc
  .tuple(fc.constantFrom('src/a.ts', 'f1.ts', 'lib/b/c.py', 'README.md'), fc.integer({ min: 1, max: 400 }))
  .map(([file, line]) => `${file}:${line}`);

/** One inline piece; `repeat` amplifies it, as the audit's inputs do. */
const inlinePiece: fc.Arbitrary<string> = fc.oneof(
  word,
  fileReference,
  word.map((w) => `*${w}*`),
  word.map((w) => `**${w}**`),
  word.map((w) => `_${w}_`),
  word.map((w) => `~~${w}~~`),
  word.map((w) => `\`${w}\``),
  fileReference.map((ref) => `\`${ref}\``),
  fc.constantFrom('<aa:>', '<https://example.com/x>', 'https://example.com/y'),
  fileReference.map((ref) => `[see](${ref})`),
  fc.constantFrom('[ref]', '[other][ref]', '![img](x.png)', '[unclosed', '*open'),
  fc.constantFrom('\\\n', '  \n', '\n'),
);

/** A line of inline pieces. */
const line = fc.array(inlinePiece, { minLength: 1, maxLength: 12 }).map((pieces) => pieces.join(' '));
/** Inline text, now and then one line repeated thousands of times (about 600 KiB at most). */
const inline = fc
  .tuple(
    line,
    fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 100, max: 5_000 }) }),
  )
  .map(([text, repeat]) => Array.from({ length: repeat }, () => text).join(' '));

const table = fc
  .tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 300 }), fc.boolean())
  .map(([columns, rows, sparse]) => {
    const row = (cell: string) => `|${Array.from({ length: sparse ? 1 : columns }, () => cell).join('|')}|`;
    return [
      `|${Array.from({ length: columns }, (_, i) => ` h${i} `).join('|')}|`,
      `|${'---|'.repeat(columns)}`,
      ...Array.from({ length: rows }, () => row(' `x` ')),
    ].join('\n');
  });

const block: fc.Arbitrary<string> = fc.oneof(
  inline,
  inline.map((text) => `## ${text.replace(/\n/g, ' ')}`),
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), inline)
    .map(([depth, text]) => `${'> '.repeat(depth)}${text.replace(/\n/g, `\n${'> '.repeat(depth)}`)}`),
  fc
    .tuple(fc.integer({ min: 1, max: 400 }), line)
    .map(([items, text]) =>
      Array.from({ length: items }, (_, i) => `${'  '.repeat(i % 3)}- ${text.replace(/\n/g, ' ')}`).join('\n'),
    ),
  table,
  fc.constantFrom('```ts\nconst a = 1; // src/a.ts:1\n```', '```\nplain\n```', '---'),
  fc.constantFrom(`[ref]: https://example.com/${'p'.repeat(2048)}`, '[ref]: src/a.ts:12'),
);

const review = fc.array(block, { minLength: 1, maxLength: 6 }).map((blocks) => blocks.join('\n\n'));

const REFUSAL =
  /^The review has (about|more than|a table row of more than|one block of about) [\d,]+ .+; the limit is [\d,]+ \([\d.]+× over\).*, so it was not shown\. Split it into several reviews, or present a summary that links to the details\.$/;

/**
 * Elements in some HTML: every start tag, but a code block's <pre><code> is one token. The spans
 * the panel adds when it highlights a block are bounded by their own limits (codeHighlight.ts).
 */
const elementsIn = (html: string): number => html.replace(/(<pre[^>]*>)<code/g, '$1').match(/<[a-z]/g)?.length ?? 0;

function slicesOf({ html, slices = [] }: RenderedReview): string[] {
  const bounds = [0, ...slices, html.length];
  return bounds.slice(1).map((end, i) => html.slice(bounds[i], end));
}

it('every review is shown within the bounds, or refused saying why', async () => {
  const seen = {
    shown: 0,
    refused: new Map<string, number>(),
    maxElements: 0,
    maxTokens: 0,
    maxSliceElements: 0,
    maxHeapGrowthMiB: 0,
    largestBytes: 0,
  };
  await fc.assert(
    fc.asyncProperty(review, async (markdown) => {
      seen.largestBytes = Math.max(seen.largestBytes, markdown.length);
      const heapBefore = process.memoryUsage().heapUsed;
      const outcome = await renderReview(markdown, new ReferenceResolver([])).catch((error: unknown) => error);
      seen.maxHeapGrowthMiB = Math.max(seen.maxHeapGrowthMiB, (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20);
      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(RenderBudgetError);
        expect(outcome.message).toMatch(REFUSAL);
        // A review under LARGE_REVIEW_BYTES is shown before the worker renders it: the estimate
        // before the parse must have refused it already.
        if (markdown.length < LARGE_REVIEW_BYTES) expect(budgetRefusal(markdown)).toBeDefined();
        const reason =
          /(markdown tokens|elements in its page|bytes of link destinations|columns in one table|elements, which cannot be cut|lines)/.exec(
            outcome.message,
          )![1];
        seen.refused.set(reason, (seen.refused.get(reason) ?? 0) + 1);
        return;
      }
      const rendered = outcome as RenderedReview;
      seen.shown++;
      // The memory bound: the tokens the parse held (about 200 bytes each) and the page's HTML.
      expect(rendered.cost.tokens).toBeLessThanOrEqual(RENDER_BUDGET.tokens.limit);
      expect(rendered.html.length).toBeLessThanOrEqual(MAX_RENDERED_HTML_BYTES);
      expect(rendered.cost.elements).toBeLessThanOrEqual(RENDER_BUDGET.elements.limit);
      expect(rendered.cost.linkBytes).toBeLessThanOrEqual(RENDER_BUDGET.linkBytes.limit);
      // The page holds no more elements than counted, and no slice more than the panel adds in one task.
      expect(elementsIn(rendered.html)).toBeLessThanOrEqual(rendered.cost.elements);
      const perSlice = slicesOf(rendered).map(elementsIn);
      expect(Math.max(...perSlice)).toBeLessThanOrEqual(SLICE_ELEMENTS);
      seen.maxElements = Math.max(seen.maxElements, rendered.cost.elements);
      seen.maxTokens = Math.max(seen.maxTokens, rendered.cost.tokens);
      seen.maxSliceElements = Math.max(seen.maxSliceElements, ...perSlice);
    }),
    { seed: 32, numRuns: 50, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: false },
  );
  process.stdout.write(
    `[render budget property] ${seen.shown} shown (at most ${seen.maxTokens} tokens, ${seen.maxElements} elements, ${seen.maxSliceElements} elements a slice), ` +
      `refused: ${[...seen.refused].map(([reason, n]) => `${n} for ${reason}`).join(', ') || 'none'}; largest review ${(seen.largestBytes / 1024).toFixed(0)} KiB, ` +
      `heap in use grew by at most ${seen.maxHeapGrowthMiB.toFixed(0)} MiB (garbage included)\n`,
  );
  expect(seen.shown).toBeGreaterThan(0);
  expect(seen.refused.size).toBeGreaterThan(0);
});
