// The store's review logic (replace, append, update-section, clear, history, events), in memory.
// What it does on disk is in reviewFiles.test.ts.

import { ReviewStore, ReviewTooLargeError, type ReviewChange } from '../../extension/src/review/reviewStore';
import { appendMarkdown, findSections, withoutLeadingBlankLines } from '../../extension/src/render/sections';
import { replaceSection } from '../../extension/src/review/sectionUpdate';
import { logTo } from '../support/loggedLines';

const newStore = (historySize = 3) => ReviewStore.inMemory({ historySize });
const historyTexts = async (store: ReviewStore) =>
  Promise.all((await store.listHistory()).map(async (entry) => (await store.readHistory(entry.revision))!.markdown));

describe('sections', () => {
  it('finds top-level headings, ATX and setext, with 1-based lines', () => {
    const md = '# Title\n\ntext\n\n## A\n\nSetext\n---\n\n### A.1 ###\n';
    expect(findSections(md).map(({ level, title, line }) => ({ level, title, line }))).toEqual([
      { level: 1, title: 'Title', line: 1 },
      { level: 2, title: 'A', line: 5 },
      { level: 2, title: 'Setext', line: 7 },
      { level: 3, title: 'A.1', line: 10 },
    ]);
  });

  it('ignores headings inside fenced code, indented code and block quotes', () => {
    const md = '```md\n# not a heading\n```\n\n    # indented\n\n> # quoted\n\n## Real\n';
    expect(findSections(md).map((s) => s.title)).toEqual(['Real']);
  });

  it('replaces a body up to the next heading of the same or higher level', () => {
    const md = '# R\n\n## A\n\nold a\n\n### A.1\n\nold a1\n\n## B\n\nb\n';
    const out = replaceSection(md, 'A', 'new a');
    expect(out).toBe('# R\n\n## A\n\nnew a\n\n## B\n\nb\n');
  });

  it('matches the heading loosely (case, spaces, leading #)', () => {
    const out = replaceSection('## Open   Questions\n\nold\n', '## open questions', 'new');
    expect(out).toBe('## Open   Questions\n\nnew\n');
  });

  it('replaces the heading too when the content starts with that same heading', () => {
    const out = replaceSection('## A\n\nold\n\n## B\n\nb\n', 'A', '## A (revised)\n\nnew');
    const same = replaceSection('## A\n\nold\n\n## B\n\nb\n', 'A', '## A\n\nnew');
    expect(same).toBe('## A\n\nnew\n\n## B\n\nb\n');
    expect(out).toBe('## A\n\n## A (revised)\n\nnew\n\n## B\n\nb\n');
  });

  it('appends a new ## section when there is no such heading', () => {
    expect(replaceSection('# R\n\ntext\n', 'Risks', 'none')).toBe('# R\n\ntext\n\n## Risks\n\nnone');
  });

  it('drops leading blank lines of an appended part exactly as /^\\s*\\n/ did', () => {
    for (const text of ['', 'a', '\n', ' \n \n', '\n\n  x', '  x', ' \t\n\u00a0\n  # H\n', '\r\n\r\nx']) {
      expect(withoutLeadingBlankLines(text)).toBe(text.replace(/^\s*\n/, ''));
    }
    expect(appendMarkdown('a \n\n\t\n', '\n\n## B')).toBe('a\n\n## B');
  });

  it('leaves a heading inside a code block alone', () => {
    const md = '```\n## A\n```\n\n## A\n\nold\n';
    expect(replaceSection(md, 'A', 'new')).toBe('```\n## A\n```\n\n## A\n\nnew\n');
  });
});

describe('ReviewStore', () => {
  it('replace starts a new review and moves the old one to history', async () => {
    const store = newStore();
    const first = await store.present({ content: '# One', mode: 'replace', title: 'First' });
    const second = await store.present({ content: '# Two', mode: 'replace' });
    expect(first.revision).toBe(1);
    expect(second.revision).toBe(2);
    expect(store.current?.markdown).toBe('# Two');
    expect(store.current?.title).toBeUndefined();
    expect(await store.listHistory()).toEqual([{ revision: 1, title: 'First', updatedAt: first.updatedAt, bytes: 5 }]);
    expect(await store.readHistory(1)).toEqual(first);
  });

  it('append adds sections in order with correct line numbers', async () => {
    const store = newStore();
    await store.present({ content: '# Review\n\nintro', mode: 'replace', title: 'T' });
    await store.present({ content: '## A\n\na', mode: 'append' });
    const review = await store.present({ content: '\n\n## B\n\nb\n', mode: 'append' });
    expect(review.markdown).toBe('# Review\n\nintro\n\n## A\n\na\n\n## B\n\nb\n');
    expect(review.sections).toEqual(
      findSections(review.markdown).map(({ level, title, line }) => ({ level, title, line })),
    );
    expect(review.title).toBe('T');
    expect(await store.listHistory()).toHaveLength(0);
  });

  it('append and update-section work with no review yet', async () => {
    expect((await newStore().present({ content: '## A', mode: 'append' })).markdown).toBe('## A');
    expect((await newStore().present({ content: 'body', mode: 'update-section', section: 'Notes' })).markdown).toBe(
      '## Notes\n\nbody',
    );
  });

  it('update-section keeps the rest of the review', async () => {
    const store = newStore();
    await store.present({ content: '# R\n\n## A\n\nold\n\n## B\n\nkeep', mode: 'replace' });
    const review = await store.present({ content: 'new', mode: 'update-section', section: 'A' });
    expect(review.markdown).toBe('# R\n\n## A\n\nnew\n\n## B\n\nkeep\n');
    expect(review.sections.map((s) => s.title)).toEqual(['R', 'A', 'B']);
  });

  it('keeps only the last N reviews in history, and a smaller size trims at once', async () => {
    const store = newStore(3);
    for (let i = 1; i <= 5; i++) await store.present({ content: `# ${i}`, mode: 'replace' });
    expect(await historyTexts(store)).toEqual(['# 4', '# 3', '# 2']);
    await store.setHistorySize(1);
    expect(await historyTexts(store)).toEqual(['# 4']);
    expect(await store.readHistory(3)).toBeUndefined();
    await store.setHistorySize(0);
    await store.present({ content: '# 6', mode: 'replace' });
    expect(await store.listHistory()).toEqual([]);
  });

  it('clear empties the panel, keeps the review in history and moves the revision on', async () => {
    const store = newStore();
    await store.present({ content: '# A', mode: 'replace' });
    await store.clear();
    expect(store.current).toBeUndefined();
    expect(store.revision).toBe(2);
    expect(await historyTexts(store)).toEqual(['# A']);
    expect((await store.present({ content: '# B', mode: 'replace' })).revision).toBe(3);
  });

  it('restore presents an earlier review again as a new revision', async () => {
    const store = newStore();
    await store.present({ content: '# A', mode: 'replace', title: 'A', cwd: '/a' });
    await store.present({ content: '# B', mode: 'replace' });
    const restored = await store.restore(1);
    expect(restored).toMatchObject({ revision: 3, markdown: '# A', title: 'A', cwd: '/a' });
    expect(await store.restore(99)).toBeUndefined();
  });

  it('fires a change event per change, at once, describing what changed', async () => {
    const store = newStore();
    const seen: ReviewChange[] = [];
    store.onDidChange((change) => seen.push(change));
    const pending = store.present({ content: '# R\n\nintro\n\n\n', mode: 'replace' });
    // Shown before it is saved.
    expect(seen.map((c) => c.review?.revision)).toEqual([1]);
    await pending;
    await store.present({ content: '\n\n## B\n\nb', mode: 'append' });
    await store.present({ content: 'new', mode: 'update-section', section: 'B' });
    await store.clear();
    expect(
      seen.map(({ kind, previousRevision, review }) => ({ kind, previousRevision, revision: review?.revision })),
    ).toEqual([
      { kind: 'replace', previousRevision: 0, revision: 1 },
      { kind: 'append', previousRevision: 1, revision: 2 },
      { kind: 'update-section', previousRevision: 2, revision: 3 },
      { kind: 'clear', previousRevision: 3, revision: undefined },
    ]);
    const append = seen[1];
    expect(append.appended).toEqual({ markdown: '## B\n\nb', startLine: 4 });
    expect(append.review!.markdown.endsWith(append.appended!.markdown)).toBe(true);
    expect(append.review!.markdown.split('\n')[append.appended!.startLine]).toBe('## B');
    expect(seen[0].appended).toBeUndefined();
  });

  it('an append to no review reports the whole text as appended from line 0', async () => {
    const store = newStore();
    const seen: ReviewChange[] = [];
    store.onDidChange((change) => seen.push(change));
    await store.present({ content: '\n## A', mode: 'append' });
    expect(seen[0].appended).toEqual({ markdown: '\n## A', startLine: 0 });
  });

  it('refuses an append that would take the review past 10 MiB, and keeps the review as it was', async () => {
    const store = newStore();
    const nineMiB = 'x'.repeat(9 * 1024 * 1024);
    await store.present({ content: nineMiB, mode: 'replace' });
    const refused = store.present({ content: nineMiB, mode: 'append' });
    await expect(refused).rejects.toThrow(ReviewTooLargeError);
    await expect(refused).rejects.toThrow(/larger than 10 MiB.*mode "replace"/);
    expect(store.current?.markdown).toBe(nineMiB);
    expect(store.revision).toBe(1);
  });

  it('stage applies at once and hands back the review with the promise of its write', async () => {
    const store = newStore();
    const changes: ReviewChange[] = [];
    store.onDidChange((change) => changes.push(change));
    const { review, durable } = store.stage({ content: '# Staged\n\n## A\n', mode: 'replace' });
    expect(store.current).toBe(review);
    expect(review.sections.map((s) => s.title)).toEqual(['Staged', 'A']);
    expect(changes.map((c) => c.review)).toEqual([review]);
    await expect(durable).resolves.toBeUndefined();
    // A refusal is thrown before anything changes, so no render starts for it.
    const tooLarge = () => store.stage({ content: 'x'.repeat(10 * 1024 * 1024 + 1), mode: 'append' });
    expect(tooLarge).toThrow(ReviewTooLargeError);
    expect(store.current).toBe(review);
    expect(changes).toHaveLength(1);
  });
});

describe("the history's size on disk", () => {
  it('drops the oldest earlier reviews once together they would pass the byte cap, and says so', async () => {
    const logs: string[] = [];
    const store = ReviewStore.inMemory({
      historySize: 50,
      maxHistoryBytes: 3_000,
      log: logTo(logs),
    });
    for (let i = 1; i <= 6; i++)
      await store.present({ content: `# Review ${i}\n\n${'x'.repeat(990)}`, mode: 'replace' });
    // Five earlier reviews of about 1,000 bytes each: only the newest two fit in 3,000.
    expect((await store.listHistory()).map((entry) => entry.revision)).toEqual([5, 4]);
    expect(logs.at(-1)).toMatch(
      /dropped the 1 oldest earlier review\(s\) \(\d+ bytes\): together the earlier reviews in this workspace would hold more than 2\.9 KiB\./,
    );
    expect(await store.readHistory(3)).toBeUndefined();
  });
});
