// update-section finds the new sections from the known ones and a parse of the new content alone;
// they must be exactly what a parse of the whole result finds, or it parses the whole instead.

import { measureReview } from '../../shared/reviewBudget';
import { compose, composedCost } from '../../extension/src/review/compose';
import { findSections, toSections } from '../../extension/src/render/sections';
import { updateSection } from '../../extension/src/review/sectionUpdate';

const REVIEWS = [
  '# Review\n\nintro\n\n## A\n\na text\n\n### A.1\n\ndeep\n\n## B\n\nb text\n',
  '# Review\n\n## A\n\n```\n## not a heading\n```\n\n## B\n\nb\n\nSetext\n------\n\ntail\n',
  'Title\n=====\n\nSub\n---\n\ntext\n\n## A\n\n<!--\n## hidden\n-->\n\n## C\n',
  '## A\n\nonly\n',
  '',
  'no headings at all\n',
];
const UPDATES: Array<[string, string]> = [
  ['A', 'new a'],
  ['A', '## A\n\nrewritten, heading and all\n\n### A.2\n\nmore'],
  ['B', '\n\n  spaced  \n\n'],
  ['Setext', 'x'],
  ['Missing', 'added at the end\n\n## Inner\n'],
  ['A', '```\nan unclosed fence swallows what follows\n## B'],
  ['A', '<!-- an open comment\n## B'],
  ['C', ''],
  ['Sub', 'Another\n===\n'],
];

describe('updateSection', () => {
  it.each(REVIEWS.flatMap((review) => UPDATES.map(([section, content]) => [review, section, content])))(
    'finds what a whole parse finds: %j, %s ← %j',
    (markdown, section, content) => {
      const known = toSections(findSections(markdown));
      const update = updateSection({ markdown, sections: known }, section, content);
      expect(update.sections).toEqual(toSections(findSections(update.markdown)));
      // The same text as without known sections.
      expect(updateSection({ markdown }, section, content).markdown).toBe(update.markdown);
    },
  );

  it('falls back to a whole parse when the known sections do not match the text', () => {
    const markdown = '# R\n\n## A\n\na\n\n## B\n\nb\n';
    for (const wrong of [
      [{ level: 2, title: 'A', line: 4 }],
      [{ level: 2, title: 'A', line: 99 }],
      [
        { level: 2, title: 'B', line: 7 },
        { level: 2, title: 'A', line: 3 },
      ],
    ]) {
      const update = updateSection({ markdown, sections: wrong }, 'A', 'new');
      expect(update.markdown).toBe('# R\n\n## A\n\nnew\n\n## B\n\nb\n');
      expect(update.sections).toEqual(toSections(findSections(update.markdown)));
    }
  });

  it('says what it took out', () => {
    expect(updateSection({ markdown: '## A\n\nold\n\n## B\n' }, 'A', 'new').removed).toBe('\nold\n');
  });

  it('takes the sections before and after the update from the known ones, not from a parse of the whole', () => {
    const markdown = Array.from({ length: 2_000 }, (_, i) => `## Section ${i}\n\nprose ${i}\n`).join('\n');
    // Known titles that the text does not have: only a review whose sections were not parsed again keeps them.
    const known = toSections(findSections(markdown)).map((section) => ({
      ...section,
      title: `known ${section.title}`,
    }));
    const update = updateSection({ markdown, sections: known }, 'known Section 1000', 'replaced');
    expect(update.sections).toHaveLength(2_000);
    expect(update.sections[0].title).toBe('known Section 0');
    expect(update.sections[1999]).toEqual({
      level: 2,
      title: 'known Section 1999',
      line: findSections(update.markdown)[1999].line,
    });
  });
});

describe('composedCost', () => {
  it('is the cost of the whole, from the base cost and the change', () => {
    const base = {
      markdown: '# R\n\n- *a*\n- `b`\n\n## A\n\nold *x*\n\n## B\n\nb\n',
      sections: toSections(findSections('# R\n\n- *a*\n- `b`\n\n## A\n\nold *x*\n\n## B\n\nb\n')),
    };
    for (const request of [
      { content: '- c\n- *d*', mode: 'append' as const },
      { content: 'new `y` and *z*', mode: 'update-section' as const, section: 'A' },
      { content: '## C\n\n> q', mode: 'update-section' as const, section: 'C' },
    ]) {
      const composed = compose(base, request);
      expect(composedCost(measureReview(base.markdown), composed)).toEqual(measureReview(composed.markdown));
    }
  });
});
