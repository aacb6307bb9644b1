// A reply means the review is on disk: a host SIGKILLed right after a present-review was answered
// (no dispose, no flush) leaves a directory from which the next window opens exactly that review.

import * as fs from 'fs';
import * as path from 'path';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import { StoreChild, storeChildren } from './storeChild';
import { logTo } from '../support/loggedLines';

const work = storeChildren();

describe('a host killed right after a reply', () => {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(work, 'reviews-'));
  });

  async function reopen(): Promise<{ store: ReviewStore; warnings: string[] }> {
    const warnings: string[] = [];
    const store = await ReviewStore.open({ directory, historySize: 5, log: logTo(warnings) });
    return { store, warnings };
  }

  it('keeps the replaced review, with the revision and text the reply promised', async () => {
    const child = await StoreChild.start({ reviews: directory });
    await child.present({ content: '# First\n\nold', mode: 'replace', title: 'First' });
    const content = `# Second\n\n${'Finding at src/a.ts:3 — ünïcödé 🚨\n'.repeat(20_000)}`;
    const revision = await child.present({ content, mode: 'replace', title: 'Second', cwd: '/w' });
    await child.kill();

    const { store, warnings } = await reopen();
    expect(store.revision).toBe(revision);
    expect(store.current).toMatchObject({ revision, markdown: content, title: 'Second', cwd: '/w' });
    expect((await store.listHistory()).map((entry) => entry.title)).toEqual(['First']);
    expect(warnings).toEqual([]);
  });

  it('keeps every append that was answered when killed among a stream of appends', async () => {
    const child = await StoreChild.start({ reviews: directory });
    await child.present({ content: '# Review', mode: 'replace' });
    const answered: number[] = [];
    let killed: Promise<void> | undefined;
    let answeredAtKill = 0;
    const fiftyAnswered = new Promise<void>((resolve) => {
      void (async () => {
        // Sent a millisecond apart, so the child's writes (each rewriting a growing review) are spread out and some are in flight at the kill.
        for (let i = 0; i < 200 && !killed; i++) {
          void child.present({ content: `## S${i}\n\n${'body '.repeat(4000)}`, mode: 'append' }).then(
            (revision) => {
              answered.push(revision);
              if (answered.length === 50) {
                answeredAtKill = Math.max(...answered);
                killed = child.kill();
                resolve();
              }
            },
            () => undefined,
          );
          await new Promise((next) => setTimeout(next, 1));
        }
      })();
    });
    await fiftyAnswered;
    await killed;
    // Replies read in the same chunk as the 50th count too: the child sent them before it died.
    const promised = Math.max(...answered);

    const { store, warnings } = await reopen();
    expect(store.revision).toBeGreaterThanOrEqual(promised);
    // Every answered append is there, in order, and nothing is half-written.
    const titles = store.current!.sections.map((section) => section.title);
    expect(titles.slice(0, promised)).toEqual(['Review', ...Array.from({ length: promised - 1 }, (_, i) => `S${i}`)]);
    expect(titles).toEqual(['Review', ...Array.from({ length: titles.length - 1 }, (_, i) => `S${i}`)]);
    expect(fs.readdirSync(directory).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    expect(warnings).toEqual([]);
    process.stdout.write(
      `SIGKILL at the 50th reply (revision ${answeredAtKill}); ${answered.length} replies had arrived; reopened at revision ${store.revision}, ${promised} promised, 201 sent\n`,
    );
  });
});
