// The review store on disk: a resolved present() means the review is in a file; a reopened store
// sees exactly that; bursts share writes; stored files are untrusted; Redline 0.1's files are read
// and moved to the new layout; a failed write is reported to every caller it covers.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Section } from '../../shared/protocol';
import { isSectionList } from '../../extension/src/review/storedState';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import { monitorThreadHolds } from '../support/threadHolds';

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

async function open(historySize = 3): Promise<ReviewStore> {
  const store = await ReviewStore.open({ directory: dir, historySize, log: (message) => warnings.push(message) });
  opened.push(store);
  return store;
}
/** The directory's names, review files without the writer's mark (review-<revision>.md). */
const files = () =>
  fs
    .readdirSync(dir)
    .map((name) => name.replace(/^(review-\d+)-[0-9a-f]{8}\.md$/, '$1.md'))
    .sort();
const currentFile = () => path.join(dir, JSON.parse(fs.readFileSync(path.join(dir, 'current.json'), 'utf8')).current);
const write = (name: string, value: unknown) =>
  fs.writeFileSync(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
const stored = (revision: number, markdown = `# Review ${revision}`) => ({
  revision,
  markdown,
  updatedAt: '2026-11-22T00:00:00.000Z',
});
const historyTexts = async (store: ReviewStore) =>
  Promise.all((await store.listHistory()).map(async (entry) => (await store.readHistory(entry.revision))!.markdown));

describe('ReviewStore on disk', () => {
  it('a resolved present is in the files, and a reopened store has the same review, revision and history', async () => {
    const store = await open();
    await store.present({ content: '# Old', mode: 'replace', title: 'Old' });
    await store.present({ content: '# New', mode: 'replace', cwd: '/w' });
    const last = await store.present({ content: '## More', mode: 'append' });
    // The markdown as it is, after a line of what the history lists and a line of sections.
    expect(fs.readFileSync(currentFile(), 'utf8').split('\n').slice(2).join('\n')).toBe('# New\n\n## More');
    // The appended-to review's file is gone; the replaced one is an earlier review.
    expect(files()).toEqual(['current.json', 'review-1.md', 'review-3.md']);

    const reopened = await open();
    expect(reopened.current).toEqual(last);
    expect(reopened.revision).toBe(3);
    expect(await reopened.listHistory()).toEqual([
      { revision: 1, title: 'Old', updatedAt: expect.any(String), bytes: 5 },
    ]);
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
    const reviews = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => store.present({ content: `## S${i}\n\nbody ${i}`, mode: 'append' })),
    );
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
    expect(store.commitCount).toBeLessThanOrEqual(2);
  });

  it('trims history files on disk on replace and on setHistorySize', async () => {
    const store = await open(3);
    for (let i = 1; i <= 6; i++) await store.present({ content: `# ${i}`, mode: 'replace' });
    expect(files()).toEqual(['current.json', 'review-3.md', 'review-4.md', 'review-5.md', 'review-6.md']);
    await store.setHistorySize(1);
    expect(files()).toEqual(['current.json', 'review-5.md', 'review-6.md']);
    const reopened = await open(0);
    expect(await reopened.listHistory()).toEqual([]);
    expect(files()).toEqual(['current.json', 'review-6.md']);
  });

  it('ignores and removes a temp file that a crash left behind', async () => {
    const store = await open();
    await store.present({ content: '# Kept', mode: 'replace' });
    write('.tmp-current.json.abc123', '{"version":2,"revision":9,"cur');
    const reopened = await open();
    expect(reopened.current?.markdown).toBe('# Kept');
    expect(files()).toEqual(['current.json', 'review-1.md']);
    expect(warnings).toEqual([]);
  });

  it("reads Redline 0.1's files, moves the current review to a file of its own, and drops its duplicate", async () => {
    write('current.json', { version: 2, revision: 4, current: stored(4) });
    // A crash between 0.1's two renames left the current review in a history file too.
    write('history-4.json', stored(4));
    write('history-3.json', stored(3));
    const store = await open();
    expect(store.current?.markdown).toBe('# Review 4');
    expect((await store.listHistory()).map((e) => e.revision)).toEqual([3]);
    await store.flush();
    expect(files()).toEqual(['current.json', 'history-3.json', 'review-4.md']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'current.json'), 'utf8'))).toEqual({
      version: 3,
      revision: 4,
      current: expect.stringMatching(/^review-4-/),
    });
    const reopened = await open();
    expect(reopened.current?.markdown).toBe('# Review 4');
    expect(await historyTexts(reopened)).toEqual(['# Review 3']);
  });

  it('keeps the markdown as it is: a review of control characters takes its own size on disk, not six times it', async () => {
    const markdown = '\u0001'.repeat(1024 * 1024);
    const store = await open();
    await store.present({ content: markdown, mode: 'replace' });
    expect(fs.statSync(currentFile()).size).toBeLessThan(markdown.length + 1024);
    expect((await open()).current?.markdown).toBe(markdown);
  });

  it('writes a large review in parts without cutting a character in two: astral characters across every part boundary read back whole', async () => {
    // Each part is encoded on its own; a surrogate pair cut between two would come back as two U+FFFD.
    const markdown = `# Astral\n\n${'😀'.repeat(1024 * 1024)}\né${'😀'.repeat(300 * 1024)}`;
    const store = await open();
    await store.present({ content: markdown, mode: 'replace' });
    expect(fs.statSync(currentFile()).size).toBeLessThan(Buffer.byteLength(markdown) + 1024);
    expect((await open()).current?.markdown).toBe(markdown);
  });

  it('moves aside a review file cut short, and one whose first line is not what Redline writes', async () => {
    const store = await open();
    await store.present({ content: '# One\n\nbody', mode: 'replace' });
    await store.present({ content: '# Two', mode: 'replace' });
    const [one] = fs.readdirSync(dir).filter((name) => name.startsWith('review-1-'));
    fs.truncateSync(path.join(dir, one), fs.statSync(path.join(dir, one)).size - 3);
    write('review-7-0000abcd.md', 'not json\nnull\n# x');
    const reopened = await open();
    expect((await reopened.listHistory()).map((entry) => entry.revision)).toEqual([1]);
    expect(await reopened.readHistory(1)).toBeUndefined();
    expect(await reopened.listHistory()).toEqual([]);
    expect(warnings).toEqual([
      expect.stringContaining('review-7-0000abcd.md'),
      expect.stringMatching(/review-1-.*not the 11 its first line says/),
    ]);
  });

  it("opens a stored 10 MiB review of 49,000 headings without holding the window's thread for long", async () => {
    const markdown = Array.from({ length: 49_000 }, (_, i) => `## Heading number ${i}\n\n${'text '.repeat(36)}\n`).join(
      '\n',
    );
    const store = await open();
    await store.present({ content: markdown, mode: 'replace' });
    const stalls = monitorThreadHolds();
    stalls.enable();
    const started = performance.now();
    const reopened = await open();
    const openMs = performance.now() - started;
    // A stall at the very end is only seen once the loop gets its next turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    stalls.disable();
    const stall = stalls.maxMs;
    process.stdout.write(
      `[store] open of a 10 MiB review with 49,000 sections: ${openMs.toFixed(0)} ms, longest stall ${stall.toFixed(0)} ms\n`,
    );
    expect(reopened.current?.sections).toHaveLength(49_000);
    // zod checked the sections one by one in over a second here; the store now takes a small part
    // of that, in steps. Generous, for a busy machine.
    expect(stall).toBeLessThan(500);
  });

  it("restores an earlier review with the sections it has, without parsing it again on the window's thread", async () => {
    // Stored sections that fit the text but are not what a parse finds: a parse would put One and Kept back.
    write('history-1.json', {
      ...stored(1, '# One\n\n## Kept\n\nbody'),
      title: 'first',
      sections: [{ level: 1, title: 'As stored', line: 1 }],
    });
    write('current.json', { version: 2, revision: 2, current: stored(2) });
    const store = await open();
    await store.flush();
    const restored = await store.restore(1);
    expect(restored).toMatchObject({
      revision: 3,
      title: 'first',
      sections: [{ level: 1, title: 'As stored', line: 1 }],
    });
  });

  it('checks stored sections exactly as the protocol does', () => {
    const valid = [
      { level: 1, title: 'A', line: 1 },
      { level: 6, title: '', line: 99 },
      { level: 2, title: 'x', line: 3, extra: true },
    ];
    const invalid: unknown[] = [
      { level: 0, title: 'A', line: 1 },
      { level: 7, title: 'A', line: 1 },
      { level: 1.5, title: 'A', line: 1 },
      { level: '1', title: 'A', line: 1 },
      { level: 1, title: 2, line: 1 },
      { level: 1, line: 1 },
      { level: 1, title: 'A', line: 0 },
      { level: 1, title: 'A', line: 2.5 },
      { level: 1, title: 'A', line: Infinity },
      { level: 1, title: 'A', line: NaN },
      null,
      [1, 'A', 1],
      'section',
    ];
    for (const section of valid)
      expect([isSectionList([section]), Section.safeParse(section).success]).toEqual([true, true]);
    for (const section of invalid)
      expect([isSectionList([section]), Section.safeParse(section).success]).toEqual([false, false]);
    expect(isSectionList('not a list')).toBe(false);
  });

  it('finds the sections again when the stored ones do not fit the text', async () => {
    const markdown = '# Title\n\n## Real\n\nbody';
    write('current.json', {
      version: 2,
      revision: 1,
      current: { ...stored(1, markdown), sections: [{ level: 2, title: 'Bogus', line: 99 }] },
    });
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
    expect(files()).toEqual(['current.json', 'history-3.json', 'review-4.md', 'review-5.md', 'review-6.md']);
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
    write('history-9999999999999999.json', stored(Number('9999999999999999')));
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
    [
      'history: null in a version 1 shape',
      'current.json',
      JSON.stringify({ version: 1, revision: 3, current: null, history: null }),
    ],
    [
      'a markdown that is a number',
      'current.json',
      JSON.stringify({ version: 2, revision: 1, current: { ...stored(1), markdown: 42 } }),
    ],
    ['a negative revision', 'current.json', JSON.stringify({ version: 2, revision: -1, current: null })],
    [
      'a revision past any real count',
      'current.json',
      JSON.stringify({ version: 2, revision: 2 ** 52, current: null }),
    ],
    ['a revision that is not an integer', 'history-2.json', JSON.stringify(stored(2.5))],
    ['a history file whose revision does not match its name', 'history-2.json', JSON.stringify(stored(5))],
    ['a name Redline does not write', 'history-latest.json', JSON.stringify(stored(5))],
    ['a review file whose first line is not JSON', 'review-2-0000abcd.md', 'not json\nnull\n# Two'],
    [
      'a review file whose revision does not match its name',
      'review-2-0000abcd.md',
      `${JSON.stringify({ v: 3, revision: 5, updatedAt: 'x', bytes: 5 })}\nnull\n# Two`,
    ],
    [
      'current.json naming a file of another shape',
      'current.json',
      JSON.stringify({ version: 3, revision: 2, current: '../outside.md' }),
    ],
    [
      'a current review newer than the revision',
      'current.json',
      JSON.stringify({ version: 2, revision: 1, current: stored(6) }),
    ],
    [
      'a FIFO in place of the file',
      'current.json',
      () => {
        if (process.platform === 'win32') fs.mkdirSync(path.join(dir, 'current.json'));
        else execFileSync('mkfifo', [path.join(dir, 'current.json')]);
      },
    ],
    [
      'a 200 MiB file',
      'current.json',
      () => {
        // Sparse, so the test does not write 200 MiB; only its size decides.
        fs.writeFileSync(path.join(dir, 'current.json'), '{');
        fs.truncateSync(path.join(dir, 'current.json'), 200 * 1024 * 1024);
      },
    ],
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
    expect(files()).toEqual(
      expect.arrayContaining([
        'history-1.json',
        expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')}\\.corrupt-`)),
      ]),
    );
    expect(files()).not.toContain(name);
    expect(await historyTexts(store)).toEqual(['# Valid']);
    // And the store works: the next change is saved and has a new revision.
    expect((await store.present({ content: '# Next', mode: 'replace' })).revision).toBeGreaterThan(1);
    expect((await open()).current?.markdown).toBe('# Next');
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
      const calls = [
        store.present({ content: '## A', mode: 'append' }),
        store.present({ content: '## B', mode: 'append' }),
      ];
      void store.clear(); // dropped on purpose: must not become an unhandled rejection
      for (const call of calls) await expect(call).rejects.toThrow(`Redline could not save the review to ${dir}`);
      // dispose() resolves once no write is in flight or waiting: every failure is logged by then,
      // and Node reports a rejection left unhandled before the next turn of the event loop.
      await store.dispose();
      await new Promise((resolve) => setImmediate(resolve));
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
