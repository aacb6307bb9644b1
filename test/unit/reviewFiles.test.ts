// The review store on disk: a resolved present() means the review is in a file; a reopened store
// sees exactly that; bursts share writes; stored files are untrusted; the old workspace-state
// reviews move into files once; a failed write is reported to every caller it covers.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ReviewStore, STORAGE_KEY, type LegacyStorage } from '../../extension/src/review/reviewStore';

let dir: string;
let warnings: string[];
let opened: ReviewStore[];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-store-'));
  warnings = [];
  opened = [];
});
afterEach(async () => {
  // dispose() waits for the history files still being validated in the background.
  await Promise.all(opened.map((store) => store.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(historySize = 3, legacy?: LegacyStorage): Promise<ReviewStore> {
  const store = await ReviewStore.open({ directory: dir, historySize, log: (message) => warnings.push(message), legacy });
  opened.push(store);
  return store;
}
const files = () => fs.readdirSync(dir).sort();
const write = (name: string, value: unknown) => fs.writeFileSync(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
const stored = (revision: number, markdown = `# Review ${revision}`) => ({ revision, markdown, updatedAt: '2026-11-22T00:00:00.000Z' });
const historyTexts = async (store: ReviewStore) =>
  Promise.all((await store.listHistory()).map(async (entry) => (await store.readHistory(entry.revision))!.markdown));

class MemoryMemento implements LegacyStorage {
  constructor(readonly values = new Map<string, unknown>()) {}
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

describe('ReviewStore on disk', () => {
  it('a resolved present is in the files, and a reopened store has the same review, revision and history', async () => {
    const store = await open();
    await store.present({ content: '# Old', mode: 'replace', title: 'Old' });
    await store.present({ content: '# New', mode: 'replace', cwd: '/w' });
    const last = await store.present({ content: '## More', mode: 'append' });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'current.json'), 'utf8')).current.markdown).toBe('# New\n\n## More');
    expect(files()).toEqual(['current.json', 'history-1.json']);

    const reopened = await open();
    expect(reopened.current).toEqual(last);
    expect(reopened.revision).toBe(3);
    expect(await reopened.listHistory()).toEqual([{ revision: 1, title: 'Old', updatedAt: expect.any(String), bytes: 5 }]);
    expect(await historyTexts(reopened)).toEqual(['# Old']);
    expect(warnings).toEqual([]);
  });

  it('a clear is durable too, and the revision goes on from where it was', async () => {
    const store = await open();
    await store.present({ content: '# A', mode: 'replace' });
    await store.clear();
    const reopened = await open();
    expect(reopened.current).toBeUndefined();
    expect(reopened.revision).toBe(2);
    expect((await reopened.present({ content: '# B', mode: 'replace' })).revision).toBe(3);
  });

  it('1,000 concurrent appends share a few writes, and all of them are on disk', async () => {
    const store = await open();
    const started = performance.now();
    const reviews = await Promise.all(Array.from({ length: 1000 }, (_, i) => store.present({ content: `## S${i}\n\nbody ${i}`, mode: 'append' })));
    const elapsed = performance.now() - started;
    expect(reviews.map((r) => r.revision)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(store.commitCount).toBeLessThanOrEqual(3);
    process.stdout.write(`1,000 concurrent appends: ${elapsed.toFixed(0)} ms, ${store.commitCount} commits\n`);
    const reopened = await open();
    expect(reopened.current?.sections).toHaveLength(1000);
    expect(reopened.current).toEqual(store.current);
  });

  it('appends that arrive while a write is in flight go out together in the next one', async () => {
    const store = await open();
    const first = store.present({ content: '## 0', mode: 'append' });
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 50 }, (_, i) => store.present({ content: `## ${i + 1}`, mode: 'append' }));
    await Promise.all([first, ...later]);
    expect(store.commitCount).toBe(2);
  });

  it('trims history files on disk on replace and on setHistorySize', async () => {
    const store = await open(3);
    for (let i = 1; i <= 6; i++) await store.present({ content: `# ${i}`, mode: 'replace' });
    expect(files()).toEqual(['current.json', 'history-3.json', 'history-4.json', 'history-5.json']);
    await store.setHistorySize(1);
    expect(files()).toEqual(['current.json', 'history-5.json']);
    const reopened = await open(0);
    expect(await reopened.listHistory()).toEqual([]);
    expect(files()).toEqual(['current.json']);
  });

  it('ignores and removes a temp file that a crash left behind', async () => {
    const store = await open();
    await store.present({ content: '# Kept', mode: 'replace' });
    write('.tmp-current.json.abc123', '{"version":2,"revision":9,"cur');
    const reopened = await open();
    expect(reopened.current?.markdown).toBe('# Kept');
    expect(files()).toEqual(['current.json']);
    expect(warnings).toEqual([]);
  });

  it('drops a history file that duplicates the current review (a crash between the two renames)', async () => {
    write('current.json', { version: 2, revision: 4, current: stored(4) });
    write('history-4.json', stored(4));
    write('history-3.json', stored(3));
    const store = await open();
    expect((await store.listHistory()).map((e) => e.revision)).toEqual([3]);
    expect(files()).toEqual(['current.json', 'history-3.json']);
  });

  it('finds the sections again when the stored ones do not fit the text', async () => {
    const markdown = '# Title\n\n## Real\n\nbody';
    write('current.json', { version: 2, revision: 1, current: { ...stored(1, markdown), sections: [{ level: 2, title: 'Bogus', line: 99 }] } });
    const store = await open();
    expect(store.current?.sections).toEqual([
      { level: 1, title: 'Title', line: 1 },
      { level: 2, title: 'Real', line: 3 },
    ]);
  });

  it('changes made while the history is still being read merge with it, newest first, without duplicates', async () => {
    write('current.json', { version: 2, revision: 4, current: stored(4) });
    write('history-4.json', stored(4));
    write('history-3.json', stored(3));
    write('history-2.json', stored(2));
    const store = await open(3);
    // Not awaited before the change: the history files may not have been read yet.
    await store.present({ content: '# Review 5', mode: 'replace' });
    await store.present({ content: '# Review 6', mode: 'replace' });
    expect((await store.listHistory()).map((e) => e.revision)).toEqual([5, 4, 3]);
    expect(await historyTexts(store)).toEqual(['# Review 5', '# Review 4', '# Review 3']);
    await store.flush();
    expect(files()).toEqual(['current.json', 'history-3.json', 'history-4.json', 'history-5.json']);
  });

  it('keeps revisions monotonic when a history file is newer than current.json', async () => {
    write('current.json', { version: 2, revision: 2, current: stored(2) });
    write('history-7.json', stored(7));
    const store = await open();
    expect(store.revision).toBe(7);
    expect((await store.present({ content: 'x', mode: 'append' })).revision).toBe(8);
  });

  it('moves aside a history file with an absurd revision, which never stops revisions from increasing', async () => {
    write('current.json', { version: 2, revision: 2, current: stored(2) });
    write('history-9999999999999999.json', stored(9999999999999999));
    const store = await open();
    expect(store.revision).toBe(2);
    expect(warnings).toEqual([expect.stringContaining('history-9999999999999999.json')]);
    expect(files().some((name) => name.startsWith('history-9999999999999999.json.corrupt-'))).toBe(true);
    expect((await store.present({ content: '# three', mode: 'replace' })).revision).toBe(3);
    expect((await store.present({ content: '# four', mode: 'replace' })).revision).toBe(4);
    await store.dispose();
    // And the next window reads current.json back, as written.
    const reopened = await open();
    expect(reopened.current?.markdown).toBe('# four');
    expect(reopened.revision).toBe(4);
  });

  const corrupt: Array<[string, string, string | (() => void)]> = [
    ['truncated JSON', 'current.json', '{"version":2,"revision":3,"current":{"revisi'],
    ['history: null in a version 1 shape', 'current.json', JSON.stringify({ version: 1, revision: 3, current: null, history: null })],
    ['a markdown that is a number', 'current.json', JSON.stringify({ version: 2, revision: 1, current: { ...stored(1), markdown: 42 } })],
    ['a negative revision', 'current.json', JSON.stringify({ version: 2, revision: -1, current: null })],
    ['a revision past any real count', 'current.json', JSON.stringify({ version: 2, revision: 2 ** 52, current: null })],
    ['a revision that is not an integer', 'history-2.json', JSON.stringify(stored(2.5))],
    ['a history file whose revision does not match its name', 'history-2.json', JSON.stringify(stored(5))],
    ['a name Redline does not write', 'history-latest.json', JSON.stringify(stored(5))],
    ['a current review newer than the revision', 'current.json', JSON.stringify({ version: 2, revision: 1, current: stored(6) })],
    ['a FIFO in place of the file', 'current.json', () => {
      if (process.platform === 'win32') fs.mkdirSync(path.join(dir, 'current.json'));
      else execFileSync('mkfifo', [path.join(dir, 'current.json')]);
    }],
    ['a 200 MiB file', 'current.json', () => {
      // Sparse, so the test does not write 200 MiB; only its size decides.
      fs.writeFileSync(path.join(dir, 'current.json'), '{');
      fs.truncateSync(path.join(dir, 'current.json'), 200 * 1024 * 1024);
    }],
  ];
  it.each(corrupt)('moves aside %s with one warning and opens with what is valid', async (_, name, content) => {
    write('history-1.json', stored(1, '# Valid'));
    if (typeof content === 'string') write(name, content);
    else content();
    const store = await open();
    // History files are validated after open() resolves; listing the history waits for that.
    expect(await historyTexts(store)).toEqual(['# Valid']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path.join(dir, name));
    expect(warnings[0]).toMatch(/moved it aside/);
    expect(files()).toEqual(expect.arrayContaining(['history-1.json', expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')}\\.corrupt-`))]));
    expect(files()).not.toContain(name);
    expect(await historyTexts(store)).toEqual(['# Valid']);
    // And the store works: the next change is saved and has a new revision.
    expect((await store.present({ content: '# Next', mode: 'replace' })).revision).toBeGreaterThan(1);
    expect((await open()).current?.markdown).toBe('# Next');
  });

  it('migrates the version 1 workspace-state reviews into files once, then clears the key', async () => {
    const memento = new MemoryMemento();
    const v1Review = (revision: number, markdown: string) => ({ ...stored(revision, markdown), sections: [{ level: 1, title: 'x', line: 1 }] });
    memento.values.set(STORAGE_KEY, { version: 1, revision: 6, current: v1Review(5, '# Five\n\n## A'), history: [v1Review(4, '# Four'), v1Review(2, '# Two')] });
    const store = await open(3, memento);
    expect(store.current?.markdown).toBe('# Five\n\n## A');
    expect(store.current?.sections.map((s) => s.title)).toEqual(['Five', 'A']);
    expect(store.revision).toBe(6);
    expect(await historyTexts(store)).toEqual(['# Four', '# Two']);
    expect(memento.values.has(STORAGE_KEY)).toBe(false);
    expect(files()).toEqual(['current.json', 'history-2.json', 'history-4.json']);

    // A later window finds the files and no key: nothing is migrated twice.
    await store.present({ content: '# Seven', mode: 'replace' });
    const again = await open(3, memento);
    expect(again.current?.markdown).toBe('# Seven');
    expect(await historyTexts(again)).toEqual(['# Five\n\n## A', '# Four', '# Two']);
  });

  it('does not let old workspace state overwrite files, and clears a corrupt old value with a warning', async () => {
    const first = await open();
    await first.present({ content: '# On disk', mode: 'replace' });
    const stale = new MemoryMemento(new Map([[STORAGE_KEY, { version: 1, revision: 9, current: stored(9, '# stale'), history: [] }]]));
    expect((await open(3, stale)).current?.markdown).toBe('# On disk');
    expect(stale.values.has(STORAGE_KEY)).toBe(false);

    fs.rmSync(dir, { recursive: true });
    const broken = new MemoryMemento(new Map([[STORAGE_KEY, { version: 1, revision: 'x', history: null }]]));
    const store = await open(3, broken);
    expect(store.current).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/earlier version kept in workspace state/)]);
    expect(broken.values.has(STORAGE_KEY)).toBe(false);
  });

  it('a failed write rejects every call it covers with a clear error, logs it once, and keeps the review shown', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const store = await open();
      await store.present({ content: '# Saved', mode: 'replace' });
      // The folder is replaced by a file: nothing can be written there.
      fs.rmSync(dir, { recursive: true });
      fs.writeFileSync(dir, 'not a folder');
      const calls = [store.present({ content: '## A', mode: 'append' }), store.present({ content: '## B', mode: 'append' })];
      void store.clear(); // dropped on purpose: must not become an unhandled rejection
      for (const call of calls) await expect(call).rejects.toThrow(`Redline could not save the review to ${dir}`);
      await store.dispose();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/could not save the review to .*check that the folder is writable/);
      expect(store.current).toBeUndefined();
      expect(store.revision).toBe(4);
      expect(unhandled).toEqual([]);

      // Once the folder is back, the next change saves everything, the clear included.
      fs.rmSync(dir);
      fs.mkdirSync(dir);
      await store.present({ content: '# After', mode: 'replace' });
      const reopened = await open();
      expect(reopened.current?.markdown).toBe('# After');
      expect(reopened.revision).toBe(5);
      expect(await historyTexts(reopened)).toEqual(['# Saved\n\n## A\n\n## B']);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
