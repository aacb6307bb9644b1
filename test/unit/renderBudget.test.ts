// The render's own budget: what markdown-it makes is counted as it is made, and the page the panel
// lays out is bounded per block and per slice. The audit's inputs (issue 32) at 512 KiB are either
// refused with the limit they broke, or cut into blocks and slices the panel can lay out a piece at
// a time; before, each reached the panel as one paragraph (or table) in one slice.

import { LARGE_REVIEW_BYTES } from '../../shared/protocol';
import { budgetRefusal, RENDER_BUDGET } from '../../shared/reviewBudget';
import { RenderBudgetError, renderReview, type RenderedReview } from '../../extension/src/render/markdownRenderer';
import { ReferenceResolver } from '../../extension/src/render/referenceResolver';
import { AUDIT_ROWS } from '../../bench/reviewFixtures';

const MiB = 1024 * 1024;
const render = (markdown: string) => renderReview(markdown, new ReferenceResolver([]));

/** The page's slices, as the panel receives them. */
function slicesOf({ html, slices = [] }: RenderedReview): string[] {
  const bounds = [0, ...slices, html.length];
  return bounds.slice(1).map((end, i) => html.slice(bounds[i], end));
}

/** Elements in some HTML: every start tag. */
const elementsIn = (html: string): number => html.match(/<[a-z]/g)?.length ?? 0;

/** Elements in each top-level block of some HTML without nesting of the same tag at top level (what these inputs make). */
function largestTopLevelBlock(html: string): number {
  let largest = 0;
  for (const block of html.split(/\n(?=<(?:p|table|h\d|ul|ol|blockquote|pre)[ >])/))
    largest = Math.max(largest, elementsIn(block));
  return largest;
}

describe("the audit's inputs at 512 KiB", () => {
  it.each(AUDIT_ROWS.map(({ name, make }) => [name, make] as const))(
    '%s: refused with its reason, or shown a bounded piece at a time',
    async (name, make) => {
      const started = performance.now();
      const outcome = await render(make(MiB / 2)).catch((error: unknown) => error);
      const ms = performance.now() - started;
      if (outcome instanceof Error) {
        process.stdout.write(`[render budget] ${name}, 512 KiB: refused in ${ms.toFixed(0)} ms: ${outcome.message}\n`);
        expect(outcome).toBeInstanceOf(RenderBudgetError);
        expect(outcome.message).toMatch(
          /^The review has .*; the limit is [\d,]+ \([\d.]+× over\).*, so it was not shown\. Split it into several reviews/,
        );
        return;
      }
      const rendered = outcome as RenderedReview;
      const slices = slicesOf(rendered);
      const perSlice = slices.map(elementsIn);
      process.stdout.write(
        `[render budget] ${name}, 512 KiB: shown in ${ms.toFixed(0)} ms, ${elementsIn(rendered.html)} elements in ${slices.length} slices ` +
          `(at most ${Math.max(...perSlice)} a slice, ${largestTopLevelBlock(rendered.html)} a block)\n`,
      );
      // A slice holds at most as many elements as a block may (pageSlices.ts's SLICE_ELEMENTS).
      expect(elementsIn(rendered.html)).toBeLessThanOrEqual(RENDER_BUDGET.elements.limit);
      expect(Math.max(...perSlice)).toBeLessThanOrEqual(RENDER_BUDGET.blockElements.limit);
      expect(largestTopLevelBlock(rendered.html)).toBeLessThanOrEqual(RENDER_BUDGET.blockElements.limit);
      // Many slices, so that the panel adds the page a task at a time.
      expect(slices.length).toBeGreaterThan(5);
    },
  );
});

describe('what the render counts', () => {
  it('counts tokens and elements as markdown-it makes them, references linked', async () => {
    const { cost } = await render(
      '# Title\n\nSee src/a.ts:3 and *this*  \nand ~~that~~.\n\n| a | b |\n| - | - |\n| 1 |\n',
    );
    // h1; p with the reference's a, em, br and s; table, thead, tr, 2 th, tbody, tr, 2 td (one filled in by markdown-it).
    expect(cost.elements).toBe(15);
    // Of the 42 tokens markdown-it makes, the reference's text is cut in three and wrapped in a link: 4 more.
    expect(cost.tokens).toBe(46);
  });

  it('refuses a table row wider than the limit, as soon as its cells are pushed', async () => {
    const columns = RENDER_BUDGET.tableColumns.limit + 1;
    const page = render(`|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n`);
    await expect(page).rejects.toThrow(
      /^The review has a table row of more than 257 columns in one table; the limit is 256 \(1\.0× over\), so it was not shown\./,
    );
  });

  it('refuses a link destination repeated past its limit before writing it into the page each time', async () => {
    const destination = `https://example.com/${'x'.repeat(4 * 1024)}`;
    const uses = Math.ceil(RENDER_BUDGET.linkBytes.limit / destination.length) + 10;
    const page = render(`[a]: ${destination}\n\n${'[a] '.repeat(uses)}\n`);
    await expect(page).rejects.toThrow(
      /bytes of link destinations \(each counted every time it is used\); the limit is 16,777,216/,
    );
  });

  it('refuses that review before it is shown, though it is small enough to be shown before it is rendered', () => {
    const definition = `[a]: https://example.com/${'x'.repeat(4 * 1024)}`;
    const markdown = `${definition}\n\n${'[a] '.repeat(RENDER_BUDGET.linkBytes.limit / 4096 + 10)}\n`;
    expect(markdown.length).toBeLessThan(LARGE_REVIEW_BYTES);
    expect(budgetRefusal(markdown)).toMatch(
      /^The review has about [\d,]+ bytes of link destinations .*; the limit is 16,777,216 \(1\.0× over\), so it was not shown\./,
    );
    // Many links and a few short definitions, as a real review has them, are not refused.
    const ordinary = `[docs]: https://example.com/docs\n[spec]: https://example.com/spec\n\n${'See [docs] and [spec], and [the guide](https://example.com/guide).\n'.repeat(3000)}`;
    expect(budgetRefusal(ordinary)).toBeUndefined();
  });

  it('refuses a block it cannot cut: a heading of 25,000 autolinks', async () => {
    const page = render(`# ${'<aa:b> '.repeat(25_000)}\n`);
    await expect(page).rejects.toThrow(
      /^The review has one block of about 25,00\d elements, which cannot be cut .*; the limit is 20,000 \(1\.3× over\), from line 1, so it was not shown\./,
    );
  });

  it('cuts a paragraph inside one emphasis and link, closing them at each cut and opening them again after it', async () => {
    const markdown = `*see [this](src/a.ts:3) and ${'**b** '.repeat(3_000)}the end*\n`;
    const { html } = await render(markdown);
    const paragraphs = html.split('</p>').slice(0, -1);
    expect(paragraphs.length).toBeGreaterThan(1);
    for (const paragraph of paragraphs) {
      expect(paragraph).toMatch(/^\n?<p[^>]*><em>/);
      expect(paragraph).toMatch(/<\/em>$/);
      expect(paragraph.match(/<strong>/g)?.length ?? 0).toBe(paragraph.match(/<\/strong>/g)?.length ?? 0);
    }
  });

  it('cuts a list by its elements as well as its items: 100 items of 300 elements each make several chunks', async () => {
    const { html } = await render(`${'- item with *a* '.concat('`c` '.repeat(300), '\n').repeat(100)}`);
    expect(html.match(/<ul/g)!.length).toBeGreaterThan(5);
    expect(largestTopLevelBlock(html)).toBeLessThanOrEqual(RENDER_BUDGET.blockElements.limit / 2);
  });

  it('a small review of short table rows, which markdown-it fills in, is refused by the estimate before the worker would refuse it', async () => {
    const table = `|${'a|'.repeat(181)}\n|${'-|'.repeat(181)}\n${'|b\n'.repeat(362)}\n`;
    const markdown = table.repeat(11);
    expect(markdown.length).toBeLessThan(LARGE_REVIEW_BYTES);
    await expect(render(markdown)).rejects.toThrow(/markdown tokens/);
    expect(budgetRefusal(markdown)).toMatch(/elements in its page/);
  });

  it('refuses more lines than the limit before parsing them', async () => {
    const started = performance.now();
    await expect(render('\n'.repeat(RENDER_BUDGET.lines.limit + 1))).rejects.toThrow(
      /^The review has about 1,000,002 lines; the limit is 1,000,000/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('cuts a long paragraph where nothing inline is open, and the text reads the same', async () => {
    const markdown = Array.from({ length: 3000 }, (_, i) => `word *${i}* [src/a.ts:${i + 1}](src/a.ts:${i + 1})`).join(
      '\n',
    );
    const rendered = await render(markdown);
    const paragraphs = rendered.html.match(/<p[ >]/g)!.length;
    expect(paragraphs).toBeGreaterThan(5);
    expect(rendered.html.match(/class="redline-block-continued"/g)!.length).toBe(paragraphs - 1);
    // Every emphasis and link closes in the paragraph that opened it.
    for (const paragraph of rendered.html.split('</p>'))
      expect(paragraph.match(/<em>/g)?.length ?? 0).toBe(paragraph.match(/<\/em>/g)?.length ?? 0);
    const text = rendered.html
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    expect(text).toBe(
      markdown
        .replace(/\*|\[|\]\([^)]*\)/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  });

  it('cuts a long table between rows; every chunk after the first continues it', async () => {
    const markdown = `| a | b |\n| - | - |\n${Array.from({ length: 250 }, (_, i) => `| ${i} | x |`).join('\n')}\n`;
    const { html } = await render(markdown);
    expect(html.match(/<table/g)!.length).toBe(3);
    expect(html.match(/<thead/g)!.length).toBe(1);
    expect(html.match(/<table [^>]*class="redline-block-continued"/g)!.length).toBe(2);
    expect(html.match(/<tr/g)!.length).toBe(251);
  });
});
