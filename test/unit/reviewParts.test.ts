// A review parsed in parts (reviewParts.ts) ends exactly as the same review parsed whole: the
// same page, reference report, findings (ids and numbering of repeated texts), counts and
// refusals. The whole render here is the same renderer told that the review is one part.

import { reviewParts } from '../../extension/src/render/reviewParts';
import { renderReview, type RenderedReview, type Resolver } from '../../extension/src/render/markdownRenderer';
import { CHUNK_CLASS, CONTINUED_CLASS, LIST_CHUNK_ITEMS } from '../../extension/src/render/listChunks';
import { denseReview } from '../../bench/reviewFixtures';
import type { FileReference } from '../../shared/links';

/** While on, the renderer is told every review is one part: the whole render. */
const mockWhole = { on: false };
jest.mock('../../extension/src/render/reviewParts', () => {
  const actual = jest.requireActual('../../extension/src/render/reviewParts');
  return {
    ...actual,
    reviewParts: (text: string) =>
      mockWhole.on ? [{ from: 0, to: text.length, line: 0, continuesList: false }] : actual.reviewParts(text),
  };
});

/** Files under src/ exist with 500 lines; anything else is missing. */
const resolver: Resolver = {
  resolve: (ref: FileReference) =>
    ref.path.startsWith('src/')
      ? { status: 'resolved', absolutePath: `/ws/${ref.path}`, lineCount: 500 }
      : { status: 'broken', reason: `no file ${ref.path}` },
};

async function inParts(markdown: string): Promise<{ rendered: RenderedReview; told: string[] }> {
  const told: string[] = [];
  const rendered = await renderReview(markdown, resolver, { onSlice: (html) => told.push(html) });
  return { rendered, told };
}

async function whole(markdown: string): Promise<RenderedReview> {
  mockWhole.on = true;
  try {
    return await renderReview(markdown, resolver);
  } finally {
    mockWhole.on = false;
  }
}

/** What must be equal: everything but where the page is cut into slices for the panel. */
function outcome({ html, references, findings, cost }: RenderedReview) {
  return {
    html,
    references,
    findings: findings.map(({ suggestionTokens, ...rest }) => ({ ...rest, suggestionTokens: suggestionTokens.length })),
    cost,
  };
}

async function expectSameAsWhole(markdown: string, { minParts = 2 } = {}): Promise<void> {
  expect(reviewParts(markdown).length).toBeGreaterThanOrEqual(minParts);
  const { rendered, told } = await inParts(markdown);
  expect(outcome(rendered)).toEqual(outcome(await whole(markdown)));
  // What was told slice by slice is the page, in order.
  expect(told.join('')).toBe(rendered.html);
}

const prose = (n: number, tag = 'p') =>
  Array.from({ length: n }, (_, i) => `Paragraph ${tag}${i} names src/p${i % 7}.ts:${(i % 90) + 1} in passing.`).join(
    '\n\n',
  );
const finding = (i: number) => `- **bug**: the same text repeated, at src/a.ts:${(i % 3) + 1}`;

const FIXTURES: Record<string, string> = {
  '70,000-style dense list': denseReview(3000),
  'fences with blank lines inside': `# R\n\n${prose(150)}\n\n\`\`\`ts\nconst a = 1;\n\nNot a paragraph, still code\n\n\`\`\`\n\n${prose(150, 'q')}\n\n~~~~\n\n\`\`\`\n\nplain in a tilde fence\n\n~~~~\n\n${prose(100, 'r')}\n`,
  'a fence in a list item that the scan takes for a top-level one': `${prose(210)}\n\n- item\n  \`\`\`\n  code\n\n\`\`\`\n\nInside a real top-level fence\n\n${prose(50, 'x')}\n\n\`\`\`\n\n${prose(210, 'y')}\n`,
  'a cut the scan proposes inside a fence it could not see': `- item\n  \`\`\`\n  code\n\n\`\`\`\n\n${prose(300)}\n\n\`\`\`\n\n${prose(50, 'after')}\n`,
  'a long tight run of items in a list that a loose item began': `- first, loose\n\n${Array.from({ length: 3000 }, (_, i) => `- item ${i}`).join('\n')}\n\n${prose(210, 'l')}\n`,
  'loose lists and lists with blank lines': `${prose(120)}\n\n- a\n\n- b\n\n  continued\n\nafter\n\n${Array.from({ length: 250 }, (_, i) => `- loose ${i}`).join('\n\n')}\n\n${prose(120, 'z')}\n`,
  'a long list that continues loosely after a blank line': `${prose(210)}\n\n${Array.from({ length: 450 }, (_, i) => `- item ${i} src/a.ts:${i + 1}`).join('\n')}\n\n- one more, loose\n\n${prose(210, 'w')}\n`,
  'a long list with nested content and a lazy line': `${prose(210)}\n\n${Array.from({ length: 350 }, (_, i) => (i % 97 === 5 ? `- item ${i}\n  - nested\nlazy` : `- item ${i}`)).join('\n')}\n\n${prose(210, 'v')}\n`,
  'long lists right after headings and of every marker': `# A\n${Array.from({ length: 330 }, (_, i) => `* star ${i}`).join('\n')}\n\n## B\n\n${Array.from({ length: 330 }, (_, i) => `+ plus ${i}`).join('\n')}\n+ + +\n\nend\n`,
  'tables and block quotes': `${prose(210)}\n\n| a | b |\n|---|---|\n| 1 | src/a.ts:1 |\n\n| c |\n|---|\n\n> quote\n\n> second quote\ncontinued lazily\n\n${prose(210, 't')}\n`,
  'reference definitions at the top, in a list and a quote': `[top]: src/a.ts#L9\n\n- [inlist]: https://example.com/l\n> [quoted]: https://example.com/q\n\n[top] [inlist] [quoted]\n\n${prose(300)}\n\n[top] again\n`,
  'a definition whose label runs over a line': `${prose(210)}\n\n[two\nlines]: https://example.com/2\n\n${prose(210, 'e')}\n\n[two lines]\n`,
  'findings with repeated text across parts': `# Findings\n\n${Array.from({ length: 600 }, (_, i) => finding(i)).join('\n')}\n\n${prose(200)}\n\n${Array.from({ length: 30 }, (_, i) => finding(i)).join('\n')}\n\n**nit**: a paragraph finding at src/b.ts:3\n\n\`\`\`suggestion\nreplacement\n\`\`\`\n`,
  'headings, rules, indented code and CRLF line ends': `# Title\r\n\r\n${prose(150).replace(/\n/g, '\r\n')}\r\n\r\n    indented\r\n\r\n    still code\r\nplain\r\n\r\n---\r\n\r\n${prose(150, 'c').replace(/\n/g, '\r\n')}\r\n`,
  'numbered lists': `${prose(210)}\n\n${Array.from({ length: 250 }, (_, i) => `${i + 3}. step src/a.ts:${i + 1}`).join('\n')}\n\n${prose(210, 'n')}\n`,
};

describe('a review parsed in parts ends as the whole review does', () => {
  for (const [name, markdown] of Object.entries(FIXTURES)) {
    it(name, () => expectSameAsWhole(markdown));
  }

  it('keeps definitions at the end in one part with everything they may apply to', async () => {
    const markdown = `${prose(150)}\n\nSee [the spec][spec] and [x].\n\n${prose(150, 'd')}\n\n[spec]: https://example.com/spec\n[x]: src/a.ts#L4\n`;
    await expectSameAsWhole(markdown, { minParts: 1 });
    expect(reviewParts(markdown)).toHaveLength(1);
    expect((await inParts(markdown)).rendered.html).toContain('data-external="https://example.com/spec"');
  });

  it('cuts a long tight list inside, every LIST_CHUNK_ITEMS items, where the whole page cuts it too', async () => {
    const markdown = denseReview(5000);
    const parts = reviewParts(markdown);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts.slice(1)) {
      expect(part.continuesList).toBe(true);
      expect((part.line - 2) % LIST_CHUNK_ITEMS).toBe(0);
    }
    const { told } = await inParts(markdown);
    expect(told[0]).toMatch(new RegExp(`^<h1[^>]*>Every call site</h1>\\n<ul class="${CHUNK_CLASS}"`));
    expect(told[1]).toMatch(new RegExp(`^<ul class="${CHUNK_CLASS} ${CONTINUED_CLASS}"`));
  });

  it("does not count the time spent writing parts against the lookups' time budget", async () => {
    const idle: number[] = [];
    const markdown = denseReview(3000);
    await renderReview(markdown, { ...resolver, idle: (ms) => idle.push(ms) });
    expect(idle).toHaveLength(reviewParts(markdown).length - 1);
    expect(idle.every((ms) => ms >= 0)).toBe(true);
  });

  it('keeps no copy of the page when the slices told are all the caller keeps', async () => {
    const markdown = denseReview(3000);
    const told: string[] = [];
    const rendered = await renderReview(markdown, resolver, { onSlice: (html) => told.push(html), slicesOnly: true });
    expect(rendered.html).toBe('');
    expect(told.join('')).toBe((await inParts(markdown)).rendered.html);
  });

  it('keeps a short review in one part', () => {
    expect(reviewParts(prose(50))).toEqual([{ from: 0, to: prose(50).length, line: 0, continuesList: false }]);
  });

  it('refuses a review over the budget in a later part as the whole render does', async () => {
    const wide = `| ${Array.from({ length: 300 }, (_, i) => `c${i}`).join(' | ')} |\n|${'---|'.repeat(300)}\n`;
    const markdown = `${prose(400)}\n\n${wide}\n${prose(10, 'after')}\n`;
    expect(reviewParts(markdown).length).toBeGreaterThan(1);
    const wholeError = await whole(markdown).catch((error: Error) => error);
    const { told } = { told: [] as string[] };
    const partsError = await renderReview(markdown, resolver, { onSlice: (html) => told.push(html) }).catch(
      (error: Error) => error,
    );
    expect(wholeError).toBeInstanceOf(Error);
    expect((wholeError as Error).name).toBe('RenderBudgetError');
    expect(partsError).toEqual(wholeError);
    // The first screen was written before the refusal; the caller (present-review) stores nothing.
    expect(told.length).toBeGreaterThan(0);
  });

  it('ends as the whole render on random reviews of every kind of block', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
    const blocks = [
      () => `Para with src/a.ts:${Math.floor(random() * 40) + 1} and *emphasis*`,
      () => `- **bug**: repeated finding at src/a.ts:${Math.floor(random() * 3) + 1}`,
      () => Array.from({ length: Math.floor(random() * 250) }, (_, i) => `- item ${i}`).join('\n'),
      () => '```\ncode\n\nmore code\n```',
      () => '```js\nopen fence that the next block may close',
      () => '    indented\n\n    code',
      () => '> quote\n>\n> more',
      () => '| a | b |\n|---|---|\n| 1 | 2 |',
      () => '## Heading',
      () => '  - indented item\n\n    with a paragraph',
      () => '1. one\n2. two',
      () => '[def]: https://example.com/def',
      () => 'Uses [def] here',
      () => '***',
      () => 'lazy\ncontinuation',
    ];
    let cut = 0;
    for (let doc = 0; doc < 30; doc++) {
      const parts: string[] = [];
      while (parts.length < 400) parts.push(pick(blocks)(), pick(['\n', '\n\n', '\n\n', '\n\n\n']));
      const markdown = parts.join('');
      if (reviewParts(markdown).length > 1) cut++;
      const { rendered } = await inParts(markdown);
      expect(outcome(rendered)).toEqual(outcome(await whole(markdown)));
    }
    // Most of them were in fact cut.
    expect(cut).toBeGreaterThan(10);
  });
});

describe('progress of a review in parts', () => {
  it('after the first part’s steps, tells the share written after every part, rising to the whole', async () => {
    const markdown = denseReview(5_000);
    expect(reviewParts(markdown).length).toBeGreaterThan(2);
    const steps: string[] = [];
    const shares: number[] = [];
    await renderReview(markdown, resolver, {
      onProgress: (step) => {
        steps.push(step.step);
        if (step.step === 'written') shares.push(step.share);
      },
    });
    expect(steps.slice(0, 1)).toEqual(['parsed']);
    expect(steps.indexOf('written')).toBeGreaterThan(steps.indexOf('writing'));
    expect(shares.length).toBeGreaterThan(2);
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1]);
    expect(shares[shares.length - 1]).toBe(1);
  });

  it('a review in one part tells no share: its steps say it all', async () => {
    const steps: string[] = [];
    await renderReview('- **bug**: `src/a.ts:3` wrong\n', resolver, { onProgress: (step) => steps.push(step.step) });
    expect(steps).not.toContain('written');
  });
});
