import { ReviewStore, STORAGE_KEY, type ReviewStorage } from '../../extension/src/review/reviewStore';
import { findSections, replaceSection } from '../../extension/src/review/sections';

class MemoryStorage implements ReviewStorage {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const newStore = (storage?: ReviewStorage, historySize = 3) => new ReviewStore(storage, { historySize, persistDelayMs: 5 });

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

  it('leaves a heading inside a code block alone', () => {
    const md = '```\n## A\n```\n\n## A\n\nold\n';
    expect(replaceSection(md, 'A', 'new')).toBe('```\n## A\n```\n\n## A\n\nnew\n');
  });
});

describe('ReviewStore', () => {
  it('replace starts a new review and moves the old one to history', () => {
    const store = newStore();
    const first = store.present({ content: '# One', mode: 'replace', title: 'First' });
    const second = store.present({ content: '# Two', mode: 'replace' });
    expect(first.revision).toBe(1);
    expect(second.revision).toBe(2);
    expect(store.current?.markdown).toBe('# Two');
    expect(store.current?.title).toBeUndefined();
    expect(store.history.map((r) => r.markdown)).toEqual(['# One']);
  });

  it('append adds sections in order with correct line numbers', () => {
    const store = newStore();
    store.present({ content: '# Review\n\nintro', mode: 'replace', title: 'T' });
    store.present({ content: '## A\n\na', mode: 'append' });
    const review = store.present({ content: '\n\n## B\n\nb\n', mode: 'append' });
    expect(review.markdown).toBe('# Review\n\nintro\n\n## A\n\na\n\n## B\n\nb\n');
    expect(review.sections).toEqual(findSections(review.markdown).map(({ level, title, line }) => ({ level, title, line })));
    expect(review.title).toBe('T');
    expect(store.history).toHaveLength(0);
  });

  it('append and update-section work with no review yet', () => {
    expect(newStore().present({ content: '## A', mode: 'append' }).markdown).toBe('## A');
    expect(newStore().present({ content: 'body', mode: 'update-section', section: 'Notes' }).markdown).toBe('## Notes\n\nbody');
  });

  it('update-section keeps the rest of the review', () => {
    const store = newStore();
    store.present({ content: '# R\n\n## A\n\nold\n\n## B\n\nkeep', mode: 'replace' });
    const review = store.present({ content: 'new', mode: 'update-section', section: 'A' });
    expect(review.markdown).toBe('# R\n\n## A\n\nnew\n\n## B\n\nkeep\n');
    expect(review.sections.map((s) => s.title)).toEqual(['R', 'A', 'B']);
  });

  it('keeps only the last N reviews in history', () => {
    const store = newStore(undefined, 2);
    for (let i = 1; i <= 5; i++) store.present({ content: `# ${i}`, mode: 'replace' });
    expect(store.history.map((r) => r.markdown)).toEqual(['# 4', '# 3']);
  });

  it('clear empties the panel, keeps the review in history and moves the revision on', () => {
    const store = newStore();
    store.present({ content: '# A', mode: 'replace' });
    store.clear();
    expect(store.current).toBeUndefined();
    expect(store.revision).toBe(2);
    expect(store.history[0].markdown).toBe('# A');
    expect(store.present({ content: '# B', mode: 'replace' }).revision).toBe(3);
  });

  it('fires a change event per change', () => {
    const store = newStore();
    const seen: Array<number | undefined> = [];
    store.onDidChange((review) => seen.push(review?.revision));
    store.present({ content: 'a', mode: 'replace' });
    store.present({ content: 'b', mode: 'append' });
    store.clear();
    expect(seen).toEqual([1, 2, undefined]);
  });

  it('persists current, history and revision, and restores them in a new store', async () => {
    const storage = new MemoryStorage();
    const store = newStore(storage);
    store.present({ content: '# Old', mode: 'replace' });
    store.present({ content: '# New', mode: 'replace', cwd: '/w' });
    store.present({ content: '## More', mode: 'append' });
    await store.flush();
    const restored = newStore(storage);
    expect(restored.current?.markdown).toBe('# New\n\n## More');
    expect(restored.current?.cwd).toBe('/w');
    expect(restored.revision).toBe(3);
    expect(restored.history.map((r) => r.markdown)).toEqual(['# Old']);
    expect(storage.values.has(STORAGE_KEY)).toBe(true);
  });

  it('coalesces a burst of changes into few writes', async () => {
    const storage = new MemoryStorage();
    const store = newStore(storage);
    for (let i = 0; i < 500; i++) store.present({ content: `## S${i}`, mode: 'append' });
    await store.flush();
    expect(storage.writes).toBeLessThanOrEqual(2);
    expect(newStore(storage).current?.sections).toHaveLength(500);
  });

  it('refuses an append that would take the review past 10 MiB, and keeps the review as it was', () => {
    const store = newStore();
    const nineMiB = 'x'.repeat(9 * 1024 * 1024);
    store.present({ content: nineMiB, mode: 'replace' });
    expect(() => store.present({ content: nineMiB, mode: 'append' })).toThrow(/larger than 10 MiB/);
    expect(store.current?.markdown).toBe(nineMiB);
    expect(store.revision).toBe(1);
  });
});
