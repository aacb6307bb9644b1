// get-review's pages: where they are cut, what goes with each, and the cursors between them.

import {
  COMPARISON_BYTES,
  IpcError,
  MAX_PAGE_SECTIONS,
  MAX_SECTION_CHARS,
  PAGE_FINDINGS_BYTES,
  REVIEW_PAGE_CHARS,
  type Finding,
  type ReviewComparison,
  type Section,
} from '../../shared/protocol';
import {
  boundedComparison,
  decodeCursor,
  encodeCursor,
  reviewPage,
  type Page,
  type PagedReview,
} from '../../extension/src/bridge/reviewPages';

function finding(index: number, title = `finding ${index}`): Finding {
  return {
    id: `f${index}`,
    severity: 'bug',
    title,
    reference: `src/a.ts:${index + 1}`,
    file: 'src/a.ts',
    line: index + 1,
    endLine: index + 1,
    state: 'open',
    stale: false,
  };
}

/** Every page from the first, following nextCursor as a client does. */
function allPages(review: PagedReview, findings: Finding[] = []): Page[] {
  const pages = [reviewPage(review, findings)];
  while (pages.at(-1)!.nextCursor !== undefined)
    pages.push(reviewPage(review, findings, decodeCursor(pages.at(-1)!.nextCursor!, review, findings.length)));
  return pages;
}

describe("get-review's pages", () => {
  it('gives a short review whole, on one page', () => {
    const review = { revision: 2, markdown: '# R\n\nbody\n', sections: [{ level: 1, title: 'R', line: 1 }] };
    const page = reviewPage(review, [finding(0)]);
    expect(page).toEqual({
      markdown: review.markdown,
      sections: review.sections,
      findings: [finding(0)],
      page: { fromLine: 1, toLine: 3, totalLines: 3, firstFinding: 0, totalFindings: 1 },
    });
  });

  it('cuts at line ends, numbering the lines of the whole review, and the pages join into it', () => {
    const line = 'x'.repeat(999) + '\n';
    const review = { revision: 1, markdown: line.repeat(300), sections: [] };
    const pages = allPages(review);
    expect(pages.map((page) => page.markdown).join('')).toBe(review.markdown);
    expect(pages.length).toBe(Math.ceil(300 / Math.floor(REVIEW_PAGE_CHARS / 1000)));
    for (const page of pages)
      expect(page.markdown.endsWith('\n') && page.markdown.length <= REVIEW_PAGE_CHARS).toBe(true);
    expect(pages[1].page).toMatchObject({ fromLine: pages[0].page.toLine! + 1, totalLines: 300 });
    expect(pages.at(-1)!.page.toLine).toBe(300);
  });

  it('cuts a line longer than a page inside it, but never between the halves of a surrogate pair', () => {
    const markdown = 'a'.repeat(REVIEW_PAGE_CHARS - 1) + '😀' + 'b'.repeat(10);
    const pages = allPages({ revision: 1, markdown, sections: [] });
    expect(pages[0].markdown).toBe('a'.repeat(REVIEW_PAGE_CHARS - 1));
    expect(pages[1].markdown.startsWith('😀')).toBe(true);
    expect(pages.map((page) => page.markdown).join('')).toBe(markdown);
    expect(pages.map((page) => [page.page.fromLine, page.page.toLine])).toEqual([
      [1, 1],
      [1, 1],
    ]);
  });

  it('lists a heading longer than a page once, on the page its line starts on, its title cut to what update-section takes', () => {
    const title = 'h'.repeat(3 * REVIEW_PAGE_CHARS);
    const review = {
      revision: 1,
      markdown: `# ${title}\n\n# Next\n`,
      sections: [
        { level: 1, title, line: 1 },
        { level: 1, title: 'Next', line: 3 },
      ],
    };
    const pages = allPages(review);
    expect(pages.length).toBe(4);
    expect(pages.map((page) => page.sections.map((section) => section.line))).toEqual([[1], [], [], [3]]);
    expect(pages[0].sections[0].title).toBe(`${'h'.repeat(MAX_SECTION_CHARS - 1)}…`);
    expect(pages.map((page) => page.markdown).join('')).toBe(review.markdown);
  });

  it(`ends a page before its ${MAX_PAGE_SECTIONS + 1}st heading`, () => {
    const sections: Section[] = Array.from({ length: 2500 }, (_, i) => ({ level: 1, title: `h${i}`, line: i + 1 }));
    const review = { revision: 1, markdown: sections.map((section) => `# ${section.title}\n`).join(''), sections };
    const pages = allPages(review);
    expect(pages.map((page) => page.sections.length)).toEqual([1000, 1000, 500]);
    expect(pages[1].page).toMatchObject({ fromLine: 1001, toLine: 2000 });
    expect(pages[1].markdown.startsWith('# h1000\n')).toBe(true);
    expect(pages.flatMap((page) => page.sections)).toEqual(sections);
  });

  it('spreads findings over pages of at most PAGE_FINDINGS_BYTES of JSON, each given once', () => {
    const findings = Array.from({ length: 1000 }, (_, i) => finding(i, `${'\u0001'.repeat(119)}${i}`));
    const pages = allPages({ revision: 1, markdown: '# R\n', sections: [] }, findings);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((page) => page.findings)).toEqual(findings);
    for (const page of pages)
      expect(Buffer.byteLength(JSON.stringify(page.findings))).toBeLessThanOrEqual(PAGE_FINDINGS_BYTES);
    // The markdown is on the first page; the later ones carry findings only, and say so.
    expect(pages[1]).toMatchObject({
      markdown: '',
      sections: [],
      page: { firstFinding: pages[0].findings.length, totalFindings: 1000 },
    });
    expect(pages[1].page.fromLine).toBeUndefined();
  });

  it('refuses a cursor it did not give, and one of another revision, saying what to do', () => {
    const review = { revision: 3, markdown: 'a\nb\n', sections: [] };
    for (const cursor of ['', 'r3', 'r3.m5.f0', 'r3.m0.f2', 'r0.m0.f0', 'r3.m-1.f0']) {
      expect(() => decodeCursor(cursor, review, 1)).toThrow(
        new IpcError(
          -32602,
          `"${cursor}" is not a cursor get-review gave. Pass the "nextCursor" of your last get-review result as it was, or call get-review without a cursor to read the review from its first page.`,
        ),
      );
    }
    expect(() => decodeCursor('r2.m0.f0', review, 1)).toThrow(
      'That cursor is for revision 2 of your review, which is now revision 3. Call get-review without a cursor',
    );
    expect(() => decodeCursor('r2.m0.f0', undefined, 0)).toThrow(
      'That cursor is for revision 2 of your review, which is no longer shown.',
    );
    expect(decodeCursor(encodeCursor({ revision: 3, offset: 2, finding: 1 }), review, 1)).toEqual({
      revision: 3,
      offset: 2,
      finding: 1,
    });
  });

  it('numbers the lines right from a cursor it has not seen (a window reloaded between pages)', () => {
    const review = {
      revision: 1,
      markdown: 'one\ntwo\n# three\nfour\n',
      sections: [{ level: 1, title: 'three', line: 3 }],
    };
    const page = reviewPage(review, [], { revision: 1, offset: 'one\ntwo\n'.length, finding: 0 });
    expect(page).toMatchObject({
      markdown: '# three\nfour\n',
      sections: review.sections,
      page: { fromLine: 3, toLine: 4, totalLines: 4 },
    });
  });

  it('cuts the comparison to COMPARISON_BYTES, counting what it left out', () => {
    const compared = (i: number) => ({
      id: `f${i}`,
      severity: null,
      title: 'x'.repeat(100),
      reference: `${'d/'.repeat(500)}a.ts:${i}`,
      state: 'open' as const,
    });
    const many = Array.from({ length: 1000 }, (_, i) => compared(i));
    const comparison: ReviewComparison = {
      revision: 2,
      previous: { revision: 1, updatedAt: 'then' },
      new: many,
      fixed: [],
      stillOpen: many,
      declined: [],
    };
    const bounded = boundedComparison(comparison);
    expect(Buffer.byteLength(JSON.stringify(bounded))).toBeLessThan(COMPARISON_BYTES + 1024);
    expect(bounded.new.length + bounded.stillOpen.length + bounded.omitted!).toBe(2000);
    expect(bounded.new).toEqual(many.slice(0, bounded.new.length));
    const small = { ...comparison, new: many.slice(0, 3), stillOpen: [] };
    expect(boundedComparison(small)).toEqual(small);
  });
});
