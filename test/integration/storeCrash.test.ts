// A reply means the review is on disk: a host SIGKILLed right after a present-review was answered
// (no dispose, no flush) leaves a directory from which the next window opens exactly that review.

import { fork, type ChildProcess } from 'child_process';
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ReviewStore, type PresentRequest } from '../../extension/src/review/reviewStore';
import type { StoreProcessMessage, StoreProcessRequest } from './storeProcess';

let work: string;
let bundle: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-crash-'));
  bundle = path.join(work, 'storeProcess.js');
  // Bundled so the child runs the same TypeScript as the tests, with plain node.
  esbuild.buildSync({ entryPoints: [path.join(__dirname, 'storeProcess.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

class StoreChild {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (revision: number) => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;
  private constructor(readonly process: ChildProcess) {
    this.exited = new Promise((resolve) => process.once('exit', () => resolve()));
    process.on('message', (message: StoreProcessMessage) => {
      const waiter = message.type === 'ready' ? undefined : this.pending.get(message.id);
      if (!waiter || message.type === 'ready') return;
      this.pending.delete(message.id);
      if (message.type === 'done') waiter.resolve(message.revision);
      else waiter.reject(new Error(message.message));
    });
  }

  static start(directory: string): Promise<StoreChild> {
    const child = new StoreChild(fork(bundle, [directory], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the store process did not start within 10 s')), 10_000);
      child.process.once('exit', (code, signal) => reject(new Error(`the store process exited early (${code ?? signal})`)));
      child.process.once('message', (message: StoreProcessMessage) => {
        clearTimeout(timer);
        if (message.type === 'ready') resolve(child);
      });
    });
  }

  /** Sends the request; resolves with the revision from the child's "done" reply. */
  present(request: PresentRequest): Promise<number> {
    const id = this.nextId++;
    const reply = new Promise<number>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.process.send({ type: 'present', id, request } satisfies StoreProcessRequest);
    return reply;
  }

  /** SIGKILL now (synchronously, so nothing more is read from the child first); resolves when it is gone. */
  kill(): Promise<void> {
    this.process.kill('SIGKILL');
    return this.exited;
  }
}

describe('a host killed right after a reply', () => {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(work, 'reviews-'));
  });

  async function reopen(): Promise<{ store: ReviewStore; warnings: string[] }> {
    const warnings: string[] = [];
    const store = await ReviewStore.open({ directory, historySize: 5, log: (message) => warnings.push(message) });
    return { store, warnings };
  }

  it('keeps the replaced review, with the revision and text the reply promised', async () => {
    const child = await StoreChild.start(directory);
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
    const child = await StoreChild.start(directory);
    await child.present({ content: '# Review', mode: 'replace' });
    const answered: number[] = [];
    let killed: Promise<void> | undefined;
    let answeredAtKill = 0;
    const fiftyAnswered = new Promise<void>((resolve) => {
      void (async () => {
        // Sent a millisecond apart, so the child's writes (each rewriting a growing review) are spread out and some are in flight at the kill.
        for (let i = 0; i < 200 && !killed; i++) {
          void child.present({ content: `## S${i}\n\n${'body '.repeat(4000)}`, mode: 'append' }).then((revision) => {
            answered.push(revision);
            if (answered.length === 50) {
              answeredAtKill = Math.max(...answered);
              killed = child.kill();
              resolve();
            }
          }, () => undefined);
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
