import { findingId } from '../../extension/src/render/findingExtraction';
import { MAX_FINDINGS } from '../../shared/protocol';
import { labelOf } from '../../shared/findingLabel';
import { renderReview, type Resolver } from '../../extension/src/render/markdownRenderer';
import type { FileReference } from '../../shared/links';

/** src/a.ts has 100 lines and src/b.ts 10; nothing else exists. */
const files: Resolver = {
  resolve(ref: FileReference) {
    const lineCount = ({ 'src/a.ts': 100, 'src/b.ts': 10 } as Record<string, number>)[ref.path];
    return lineCount === undefined
      ? { status: 'broken', reason: 'no such file' }
      : { status: 'resolved', absolutePath: `/w/${ref.path}`, lineCount };
  },
};
const findingsIn = async (markdown: string, lineOffset?: number) =>
  (await renderReview(markdown, files, { lineOffset })).findings;

describe('findings', () => {
  it('are list items whose first reference resolves, and paragraphs that also have a severity label, anchored at its lines', async () => {
    const review = [
      '# Review',
      '',
      '- **bug**: the retry at src/a.ts:40-44 never stops',
      '- nit: missing.ts:3 then src/a.ts:5', // the first reference is broken: not a finding
      '- no reference here',
      '- the cache in src/a.ts:7 is never cleared', // a list item needs no label
      '',
      'A summary paragraph that mentions `src/b.ts:2`.', // prose: no label, not a finding
      '',
      '**risk**: a paragraph about `src/b.ts:2`.',
      '',
      '> question: quoted src/b.ts:99 is clamped to the end',
      '',
      '> quoted src/b.ts:5 without a label',
    ].join('\n');
    const findings = await findingsIn(review);
    expect(
      findings.map(({ severity, title, reference, file, line, endLine, reviewLine }) => ({
        severity,
        title,
        reference,
        file,
        line,
        endLine,
        reviewLine,
      })),
    ).toEqual([
      {
        severity: 'bug',
        title: 'the retry at src/a.ts:40-44 never stops',
        reference: 'src/a.ts:40-44',
        file: '/w/src/a.ts',
        line: 40,
        endLine: 44,
        reviewLine: 3,
      },
      {
        severity: null,
        title: 'the cache in src/a.ts:7 is never cleared',
        reference: 'src/a.ts:7',
        file: '/w/src/a.ts',
        line: 7,
        endLine: 7,
        reviewLine: 6,
      },
      {
        severity: 'risk',
        title: 'a paragraph about src/b.ts:2.',
        reference: 'src/b.ts:2',
        file: '/w/src/b.ts',
        line: 2,
        endLine: 2,
        reviewLine: 10,
      },
      {
        severity: 'question',
        title: 'quoted src/b.ts:99 is clamped to the end',
        reference: 'src/b.ts:99',
        file: '/w/src/b.ts',
        line: 10,
        endLine: 10,
        reviewLine: 12,
      },
    ]);
  });

  it('take a nested list as part of the outer item, and a file without a line at its first line', async () => {
    const [finding, ...rest] = await findingsIn('- risk: see `src/a.ts`\n  - detail at src/b.ts:3\n  - more\n');
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      severity: 'risk',
      line: 1,
      endLine: 1,
      markdown: '- risk: see `src/a.ts`\n  - detail at src/b.ts:3\n  - more',
    });
  });

  it('are marked in the HTML with their ids', async () => {
    const { html, findings } = await renderReview('- bug: src/a.ts:1 fails\n\nplain\n', files);
    expect(html).toContain(`<li data-line="0" data-finding="${findings[0].id}">`);
    expect(html).toContain('<p data-line="2">plain</p>');
  });

  it('keep their ids when their text is unchanged, wherever they are, and tell repeated texts apart', async () => {
    const one = await findingsIn('- bug: src/a.ts:1 fails\n');
    const moved = await findingsIn('# New heading\n\nintro\n\n-   bug:   src/a.ts:1\n    fails\n', 10);
    expect(moved[0].id).toBe(one[0].id);
    expect(moved[0].reviewLine).toBe(15);
    const twice = await findingsIn('- bug: src/a.ts:1 fails\n\n---\n\n- bug: src/a.ts:1 fails\n');
    expect(twice.map((f) => f.id)).toEqual([one[0].id, `${one[0].id}-2`]);
    const appended = await renderReview('- bug: src/a.ts:1 fails\n', files, { takenFindingIds: new Set([one[0].id]) });
    expect(appended.findings[0].id).toBe(`${one[0].id}-2`);
    expect(findingId('a  b\n c')).toBe(findingId('a b c'));
  });

  it('number a text repeated many times in order, skipping the ids an earlier part took', async () => {
    const one = await findingsIn('- bug: src/a.ts:1 fails\n');
    const id = one[0].id;
    const repeated = Array.from({ length: 600 }, () => '- bug: src/a.ts:1 fails').join('\n\n---\n\n');
    const { findings } = await renderReview(repeated, files, { takenFindingIds: new Set([`${id}-3`, `${id}-5`]) });
    expect(findings.map((f) => f.id)).toEqual([
      id,
      `${id}-2`,
      `${id}-4`,
      ...Array.from({ length: 597 }, (_, i) => `${id}-${i + 6}`),
    ]);
  });

  it(`stop at ${MAX_FINDINGS} per review`, async () => {
    const many = Array.from({ length: MAX_FINDINGS + 5 }, (_, i) => `- item ${i} at src/a.ts:${(i % 100) + 1}`).join(
      '\n',
    );
    expect(await findingsIn(many)).toHaveLength(MAX_FINDINGS);
  });
});

describe('severity labels', () => {
  it.each([
    ['**bug**: x', 'bug', 'x'],
    ['**Bug:** x', 'bug', 'x'],
    ['blocking: x', 'blocking', 'x'],
    ['_nit_: x', 'nit', 'x'],
    ['1. question: x', 'question', 'x'],
    ['- praise: nice `code`', 'praise', 'nice code'],
    ['bugfix: x', null, 'bugfix: x'],
    ['**bug** x', null, 'bug x'],
    ['**bug:**: x', null, 'bug:: x'],
    ['Suggestion: x', 'suggestion', 'x'],
    // Identifiers keep their underscores and stars in code; emphasis marks go.
    ['risk: a missing `RATE_PER_SECOND` gives NaN', 'risk', 'a missing RATE_PER_SECOND gives NaN'],
    ['nit: rename max_retries, _really_', 'nit', 'rename max_retries, really'],
    ['bug: `a ** b` and __init__ in *bold*', 'bug', 'a ** b and init in bold'],
    ['question: `` a`b `` or `unclosed', 'question', 'a`b or unclosed'],
  ])('%s', (markdown, severity, title) => {
    expect(labelOf(markdown)).toEqual({ severity, title });
  });

  it('cuts a long title', () => {
    expect(labelOf(`risk: ${'x'.repeat(300)}`).title).toHaveLength(120);
  });
});
