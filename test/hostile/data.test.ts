// Data under pressure: pipelined bursts from several raw clients interleaving on the socket,
// update-section racing append (the result must be some serial order of the calls), and a window
// reload that must keep the review and its history, a 10 MiB review included.

import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PresentReviewParams, PresentReviewResult } from '../../shared/protocol';
import { ReviewStore, type Review } from '../../extension/src/review/reviewStore';
import { assertBuilt, connectMcp, startHost, type Host } from '../integration/harness';
import { RawPeer, type WireReply } from '../integration/rawPeer';
import { Logger } from '../../shared/logger';

/** Authenticated raw clients. */
async function rawClients(host: Host, count: number): Promise<RawPeer[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const raw = await RawPeer.connect(host.socketPath);
      await raw.hello(host.token);
      return raw;
    }),
  );
}

/** The replies to these present-review requests (requestLine), once all have come. */
async function repliesTo(raw: RawPeer, ids: readonly string[]): Promise<WireReply<PresentReviewResult>[]> {
  const wanted = new Set(ids);
  await raw.waitFor(() => raw.replies.filter((r) => wanted.has(r.id ?? '')).length === ids.length);
  const byId = new Map(raw.replies.filter((r) => wanted.has(r.id ?? '')).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) as WireReply<PresentReviewResult>);
}

function requestLine(id: string, params: PresentReviewParams): string {
  return JSON.stringify({ type: 'request', id, method: 'present-review', params }) + '\n';
}

/** The calls, each with the revision its reply carried, replayed one by one in revision order. */
async function replaySerially(calls: Array<{ params: PresentReviewParams; revision: number }>): Promise<ReviewStore> {
  const ordered = [...calls].sort((a, b) => a.revision - b.revision);
  // Revisions are consecutive: each call ran exactly once, and nothing else ran in between.
  expect(ordered.map((c) => c.revision)).toEqual(ordered.map((_, i) => ordered[0].revision + i));
  const store = ReviewStore.inMemory({ historySize: 5 });
  for (const { params } of ordered) await store.present({ mode: 'replace', ...params });
  return store;
}

describe('4 raw clients × 250 pipelined requests, each written in one burst', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost();
  });
  afterAll(async () => host?.stop());

  it('end with exactly 1,000 intact sections, each client in its own order, equal to a serial replay', async () => {
    const clients = await rawClients(host, 4);
    // Bodies from a few bytes to 2 KiB (a burst is ~250 KiB), so bursts are cut into many reads that interleave on the server.
    const body = (c: number, i: number) =>
      `line one of ${c}-${i}\n${`${c}-${i} `.repeat(((c * 250 + i) * 7919) % 300)}\nlast line of ${c}-${i}`;
    const calls = clients.map((_, c) =>
      Array.from({ length: 250 }, (_, i) => ({
        id: `c${c}-${i}`,
        params: { content: `## C${c}-${i}\n\n${body(c, i)}`, mode: 'append' } as PresentReviewParams,
      })),
    );
    const started = Date.now();
    clients.forEach((raw, c) => raw.socket.write(calls[c].map((call) => requestLine(call.id, call.params)).join('')));
    const replies = await Promise.all(
      clients.map((raw, c) =>
        repliesTo(
          raw,
          calls[c].map((call) => call.id),
        ),
      ),
    );
    const elapsed = Date.now() - started;

    expect(replies.flat().filter((r) => r.error)).toEqual([]);
    const review = host.store.current!;
    expect(review.sections).toHaveLength(1000);
    for (let c = 0; c < 4; c++) {
      const revisions = replies[c].map((r) => r.result!.revision);
      // One connection's requests run in the order they were written.
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      for (let i = 0; i < 250; i++) expect(review.markdown).toContain(`## C${c}-${i}\n\n${body(c, i)}`);
      expect(review.sections.map((s) => s.title).filter((t) => t.startsWith(`C${c}-`))).toEqual(
        Array.from({ length: 250 }, (_, i) => `C${c}-${i}`),
      );
    }
    const replayed = await replaySerially(
      calls.flatMap((list, c) =>
        list.map((call, i) => ({ params: call.params, revision: replies[c][i].result!.revision })),
      ),
    );
    expect(review.markdown).toBe(replayed.current!.markdown);
    expect(review.sections).toEqual(replayed.current!.sections);
    const interleavings = countRuns(review.sections.map((s) => s.title.slice(0, 2)));
    process.stdout.write(
      `4 × 250 pipelined raw requests: ${elapsed} ms, ${(review.markdown.length / 1024 / 1024).toFixed(1)} MiB, ${interleavings} runs of one client\n`,
    );
    clients.forEach((raw) => raw.destroy());
  });
});

describe('update-section racing append', () => {
  const SECTION_NAMES = ['Summary', 'Risks', 'open   questions', '## Risks', 'RISKS', 'Tests', 'Follow-ups'];
  /** One call, as data (so a counterexample prints readably); `toParams` makes it concrete. */
  type Plan =
    | { readonly mode: 'append'; readonly heading?: string; readonly level: string }
    | { readonly mode: 'update-section'; readonly section: string; readonly form: number };
  const planned: fc.Arbitrary<Plan> = fc.oneof(
    fc.record({
      mode: fc.constant('append' as const),
      heading: fc.option(fc.constantFrom('Summary', 'Risks', 'Open questions', 'Notes', 'Tests'), { nil: undefined }),
      level: fc.constantFrom('#', '##', '###'),
    }),
    fc.record({
      mode: fc.constant('update-section' as const),
      section: fc.constantFrom(...SECTION_NAMES),
      form: fc.integer({ min: 0, max: 3 }),
    }),
  );
  function toParams(plan: Plan, tag: string): PresentReviewParams {
    if (plan.mode === 'append') {
      const content = plan.heading
        ? `${plan.level} ${plan.heading}\n\nappended ${tag}`
        : `A paragraph ${tag}, and \`src/a.ts:1\`.`;
      return { mode: 'append', content };
    }
    const title = plan.section.replace(/^#+\s*/, '');
    const contents = [
      `body ${tag}`,
      `## ${title}\n\nwhole section ${tag}`,
      `body ${tag}\n\n### Detail\n\nnested ${tag}`,
      '```md\n## not a heading\n```\n' + `fenced ${tag}`,
    ];
    return { mode: 'update-section', section: plan.section, content: contents[plan.form] };
  }
  const writersPlan = fc.array(fc.array(planned, { minLength: 25, maxLength: 25 }), { minLength: 4, maxLength: 4 });

  it('the final review equals a serial replay of the calls in the order of the revisions they got back', async () => {
    assertBuilt();
    let rounds = 0;
    let totalCalls = 0;
    const host = await startHost();
    // One of the four writers is the real MCP server, the others raw clients that pipeline.
    const mcp = await connectMcp({ REDLINE_IPC_PATH: host.socketPath, REDLINE_IPC_TOKEN: host.token }, host.workspace);
    const raws = await rawClients(host, 3);
    try {
      await fc.assert(
        fc.asyncProperty(writersPlan, async (writers) => {
          const round = rounds++;
          const start = {
            content: `# Review ${round}\n\n## Summary\n\nstart\n\n## Risks\n\nnone yet\n`,
            mode: 'replace' as const,
          };
          const startRevision = (await host.store.present(start)).revision;
          const calls = writers.map((list, w) => list.map((plan, i) => toParams(plan, `r${round}w${w}#${i}`)));
          const sent: Array<{ params: PresentReviewParams; revision: Promise<number> }> = [];
          calls.forEach((list, w) => {
            if (w === 3) {
              for (const params of list) {
                const revision = mcp.client
                  .callTool({ name: 'present-review', arguments: { ...params } })
                  .then((r) => (r.structuredContent as { revision: number }).revision);
                sent.push({ params, revision });
              }
              return;
            }
            const raw = raws[w];
            const ids = list.map((_, i) => `r${round}w${w}-${i}`);
            raw.socket.write(list.map((params, i) => requestLine(ids[i], params)).join(''));
            const replies = repliesTo(raw, ids);
            list.forEach((params, i) => sent.push({ params, revision: replies.then((r) => r[i].result!.revision) }));
          });
          const done = await Promise.all(sent.map(async (s) => ({ params: s.params, revision: await s.revision })));
          totalCalls += done.length;
          expect(Math.min(...done.map((d) => d.revision))).toBe(startRevision + 1);
          const replayed = await replaySerially([{ params: start, revision: startRevision }, ...done]);
          expect(host.store.current!.markdown).toBe(replayed.current!.markdown);
          expect(host.store.current!.sections).toEqual(replayed.current!.sections);
        }),
        { seed: 424_242, numRuns: 6, endOnFailure: true },
      );
      process.stdout.write(
        `update-section racing append: ${rounds} rounds, ${totalCalls} concurrent calls from 4 clients, each equal to its serial replay\n`,
      );
    } finally {
      raws.forEach((raw) => raw.destroy());
      await mcp.close();
      await host.stop();
    }
  });
});

describe('a window reload keeps the review and its history', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-reload-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const open = () =>
    ReviewStore.open({
      directory: dir,
      historySize: 5,
      log: new Logger(
        {
          write: ({ message }) => {
            throw new Error(`unexpected warning: ${message}`);
          },
        },
        'test',
      ),
    });
  /** Every earlier review, read back from its file, newest first. */
  const history = async (store: ReviewStore): Promise<Review[]> =>
    Promise.all((await store.listHistory()).map(async (entry) => (await store.readHistory(entry.revision))!));

  /**
   * The old host disposes its store (that is all a reload does to it: `deactivate` returns the
   * promise of the last write, and VS Code waits for it) and a new host opens the same directory.
   */
  async function reload(before: ReviewStore): Promise<ReviewStore> {
    await before.dispose();
    return open();
  }

  it('keeps current, revision and history, including a change made just before the reload', async () => {
    const store = await open();
    for (let i = 1; i <= 7; i++)
      await store.present({
        content: `# Review ${i}\n\n## Findings\n\nfirst\n`,
        mode: 'replace',
        title: `Review ${i}`,
        cwd: `/work/${i}`,
      });
    await store.present({ content: '## Risks\n\nrace in src/a.ts:3', mode: 'append' });
    // Not awaited: the reload comes straight after the change.
    void store.present({ content: 'second', mode: 'update-section', section: 'Findings' });

    const after = await reload(store);
    expect(after.revision).toBe(store.revision);
    expect(after.current).toEqual(store.current);
    expect(await history(after)).toEqual(await history(store));
    expect((await after.listHistory()).map((r) => r.title)).toEqual([
      'Review 6',
      'Review 5',
      'Review 4',
      'Review 3',
      'Review 2',
    ]);
    expect(after.current!.markdown).toBe('# Review 7\n\n## Findings\n\nsecond\n\n## Risks\n\nrace in src/a.ts:3\n');
    // The next change continues the same revision sequence, and a second reload keeps it too.
    expect((await after.present({ content: 'more', mode: 'append' })).revision).toBe(store.revision + 1);
    const again = await reload(after);
    expect(again.revision).toBe(after.revision);
    expect(again.current).toEqual(after.current);
    expect(await history(again)).toEqual(await history(after));
    await again.dispose();
  });

  it('keeps a 10 MiB current review, and a 10 MiB one in the history', async () => {
    const store = await open();
    const big = (n: number) => {
      const paragraph = `Finding ${n}: the handler at src/example.ts:42 retries forever — ünïcödé and emoji 🚨 survive too.\n\n`;
      const head = `# Large review ${n}\n\n`;
      const count = Math.floor((10 * 1024 * 1024 - Buffer.byteLength(head)) / Buffer.byteLength(paragraph));
      return head + paragraph.repeat(count);
    };
    await store.present({ content: big(1), mode: 'replace' });
    await store.present({ content: '# small', mode: 'replace' });
    void store.present({ content: big(2), mode: 'replace' });
    expect(Buffer.byteLength(store.current!.markdown)).toBeGreaterThan(10 * 1024 * 1024 - 200);

    const started = Date.now();
    const after = await reload(store);
    const elapsed = Date.now() - started;
    expect(after.revision).toBe(3);
    expect(after.current!.markdown === store.current!.markdown).toBe(true);
    expect(after.current).toEqual(store.current);
    const entries = await after.listHistory();
    expect(entries.map((e) => e.bytes)).toEqual([Buffer.byteLength('# small'), Buffer.byteLength(big(1))]);
    expect((await after.readHistory(1))!.markdown === big(1)).toBe(true);
    const onDisk = fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
    process.stdout.write(
      `reload with 20 MiB of reviews: last write flushed and store reopened in ${elapsed} ms (${(onDisk / 1024 / 1024).toFixed(1)} MiB on disk)\n`,
    );
    await after.dispose();
  });
});

/** How many runs of equal neighbours: 4 means no interleaving at all, 1,000 means perfect alternation. */
function countRuns(values: readonly string[]): number {
  return values.filter((value, i) => i === 0 || value !== values[i - 1]).length;
}
