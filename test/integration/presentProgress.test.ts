// A large present-review, followed and cancelled by a real MCP SDK client: SDK client → built MCP
// server (stdio) → socket → the real IpcServer, renderer and file-backed store. The client speaks
// 2026-07-28 (it probes server/discover first); one test repeats the progress in the older revision.

import { SdkError } from '@modelcontextprotocol/client';
import { typicalReview, writeFixtureFiles } from '../../bench/reviewFixtures';
import { ActivityLog, type ActivityEntry } from '../../extension/src/activity/activityLog';
import { allOf, RequestLogLines } from '../../extension/src/activity/requestLogLines';
import { Logger } from '../../shared/logger';
import { PROGRESS_INTERVAL_MS } from '../../shared/progressThrottle';
import { until } from '../support/until';
import { assertBuilt, connectMcp, hostEnv, startHost, type Host } from './harness';

type Progress = { progress: number; total?: number; message?: string; at: number };

const FIVE_MIB = 5 * 1024 * 1024;
/** The MCP server waits for the window as long as these tests' client waits for it: the tests follow progress, not speed. */
describe('a large present-review, followed and cancelled', () => {
  let host: Host;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;
  const activity = new ActivityLog();
  /** What the window writes to its "Redline" output, one line per call. */
  const outputLines: string[] = [];
  const clientErrors: Error[] = [];
  const content = typicalReview(FIVE_MIB);

  beforeAll(async () => {
    assertBuilt();
    const lines = new RequestLogLines(new Logger({ write: ({ message }) => outputLines.push(message) }, 'activity'));
    const observerErrors = new Logger({ write: ({ fields }) => clientErrors.push(fields?.error as Error) }, 'activity');
    host = await startHost({ durable: true, observer: allOf([activity, lines], observerErrors) });
    writeFixtureFiles(host.workspace);
    mcp = await connectMcp(hostEnv(host), host.workspace);
    // The SDK reports a progress notification for a token it no longer knows (one after the reply) here.
    mcp.client.onerror = (error) => clientErrors.push(error);
  });
  afterAll(async () => {
    await mcp?.close();
    await host?.stop();
  });

  const present = (
    args: Record<string, unknown>,
    options: { onprogress?: (p: Progress) => void; signal?: AbortSignal } = {},
  ) =>
    mcp.client.callTool(
      { name: 'present-review', arguments: args },
      {
        timeout: 120_000,
        signal: options.signal,
        onprogress: options.onprogress && ((p) => options.onprogress!({ ...p, at: performance.now() })),
      },
    );

  it('reports real steps, rising, at most ten a second, and nothing after the reply', async () => {
    const seen: Progress[] = [];
    const started = performance.now();
    const result = await present({ content }, { onprogress: (p) => seen.push(p) });
    const answered = performance.now();
    expect(result.isError).toBeFalsy();
    const count = seen.length;
    // An update held for its slot would go within an interval of the reply, from the MCP server's
    // own timer: a settle of a few intervals, then tools/list past the client's cache, which the
    // server answers itself after anything it wrote before.
    await new Promise((resolve) => setTimeout(resolve, 5 * PROGRESS_INTERVAL_MS));
    await mcp.client.listTools(undefined, { cacheMode: 'bypass' });
    expect(seen).toHaveLength(count);
    expect(clientErrors).toEqual([]);

    const messages = seen.map((p) => p.message ?? '');
    expect(messages[0]).toMatch(/^Sending the review to VS Code: \d+\.\d of \d+\.\d MiB$/);
    expect(messages).toContainEqual(expect.stringMatching(/^VS Code: Received the review \(5\.0 MiB\)$/));
    expect(messages).toContainEqual(
      expect.stringMatching(/^VS Code: (Rendering: found [\d,]+ references|References resolved: [\d,]+ of [\d,]+)$/),
    );
    // The review comes in parts: what is written after the first one is told too.
    expect(messages).toContainEqual(expect.stringMatching(/^VS Code: Rendering: \d+% of the page written$/));
    expect(messages).toContainEqual('VS Code: Shown in the panel; saving it');
    for (const p of seen) expect(p.total).toBe(100);
    for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
    // The MCP server spaces them 100 ms apart; the client may read several at once when its
    // thread (which is also the window's here) was busy, so the count is what is bounded.
    const durationMs = answered - started;
    expect(count).toBeLessThanOrEqual(Math.ceil(durationMs / 100) + 1);
    process.stdout.write(
      `5 MiB present-review: ${count} progress notifications in ${Math.round(durationMs)} ms\n` +
        seen.map((p) => `  +${Math.round(p.at - started)} ms ${p.progress}% ${p.message}\n`).join(''),
    );
  });

  it('reports the same steps to a client of the older revisions', async () => {
    const legacy = await connectMcp(hostEnv(host), host.workspace, undefined, [], 'legacy');
    try {
      const seen: Progress[] = [];
      const result = await legacy.client.callTool(
        { name: 'present-review', arguments: { content: `${content}\n\nolder revision` } },
        { timeout: 120_000, onprogress: (p) => void seen.push({ ...p, at: performance.now() }) },
      );
      expect(result.isError).toBeFalsy();
      expect(seen.map((p) => p.message)).toContain('VS Code: Shown in the panel; saving it');
      for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
    } finally {
      await legacy.close();
    }
  });

  it('sends no progress without a progress token', async () => {
    const errorsBefore = clientErrors.length;
    const result = await present({ content: `${content}\n\nagain` });
    expect(result.isError).toBeFalsy();
    expect(clientErrors).toHaveLength(errorsBefore);
    const lines = mcp
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"progress-listener-failed"'));
    expect(lines).toEqual([]);
  });

  it('shows the first screen while it renders, and hands over to the staged review before the reply', async () => {
    const incoming = host.reviews.primary.incoming;
    const seen: Array<{ incoming?: number; current?: number; answered: boolean }> = [];
    let answered = false;
    const watching = incoming.onDidChange(() =>
      seen.push({ incoming: incoming.current?.revision, current: host.store.current?.revision, answered }),
    );
    const next = host.store.revision + 1;
    const result = await present({ content: `${content}\n\nshown first`, title: 'Incoming' });
    answered = true;
    watching.dispose();
    expect(result.isError).toBeFalsy();
    // Shown as the revision it would get, with its title; gone once the review is staged as that revision.
    expect(seen).toEqual([
      { incoming: next, current: next - 1, answered: false },
      { incoming: undefined, current: next, answered: false },
    ]);
  });

  it('a cancel mid-render stops the window: nothing stored for the call, its first screen gone from the panel, answered as cancelled there, and the next call works', async () => {
    const store = host.store;
    const before = { revision: store.revision, current: store.current, commits: store.commitCount };
    let changes = 0;
    const listening = store.onDidChange(() => changes++);
    // The panel showed the review's page while it rendered, and shows the one before it again.
    const incoming = host.reviews.primary.incoming;
    const shownIncoming: Array<number | undefined> = [];
    const watching = incoming.onDidChange(() => shownIncoming.push(incoming.current?.revision));
    const controller = new AbortController();
    let cancelledAt = 0;
    let cancelledOn = '';
    const call = present(
      { content: `${content}\n\ncancelled` },
      {
        signal: controller.signal,
        onprogress: (p) => {
          // Mid-way: once the window has said it is working on it.
          if (cancelledAt === 0 && p.message?.startsWith('VS Code:')) {
            cancelledAt = performance.now();
            cancelledOn = p.message;
            controller.abort('the user pressed Escape');
          }
        },
      },
    );
    // The client's own abort: the SDK settles the call locally and tells the server it was cancelled.
    await expect(call).rejects.toBeInstanceOf(SdkError);
    expect(cancelledAt).toBeGreaterThan(0);

    const entry = await settledEntry(activity, 'present-review', 'cancelled');
    const stoppedAfterMs = entry.startedAt + entry.durationMs! - (performance.timeOrigin + cancelledAt);
    expect(entry.error?.code).toBe(4003);
    // The MCP server's log and the window's output name the same call by the same id. The server
    // logged it before it told the window; its stderr reaches this process on a pipe of its own.
    const replyLine = new RegExp(`"event":"reply","id":"${entry.id}","method":"present-review","status":"cancelled"`);
    await until(() => replyLine.test(mcp.stderr()), "the MCP server's log line for the cancelled call");
    expect(outputLines.filter((line) => line.includes(entry.id))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^request ${entry.id} present-review from "redline-test" \\(connection \\d+\\): cancelled 4003 \\(Cancelled\\) in \\d+ ms$`,
        ),
      ),
    ]);

    await store.flush();
    expect(store.revision).toBe(before.revision);
    expect(store.current).toBe(before.current);
    expect(store.commitCount).toBe(before.commits);
    expect(changes).toBe(0);
    listening.dispose();
    // Shown from its first slice, if that was written before the cancel; gone in the end either way.
    expect(shownIncoming.at(-1)).toBeUndefined();
    expect(
      shownIncoming.filter((revision) => revision !== undefined).every((revision) => revision === before.revision + 1),
    ).toBe(true);
    watching.dispose();

    const next = await present({ content: '# After the cancel\n\nsrc/mod1/index.ts:3 is fine.' });
    expect(next.isError).toBeFalsy();
    expect(store.current?.markdown).toContain('After the cancel');
    process.stdout.write(
      `cancel sent on "${cancelledOn}"; the window answered it ${Math.round(stoppedAfterMs)} ms later\n`,
    );
  });
});

/** The newest entry for `method` once it has settled with `status`. */
async function settledEntry(activity: ActivityLog, method: string, status: string): Promise<ActivityEntry> {
  const newest = () => activity.entries().find((candidate) => candidate.method === method);
  await until(
    () => newest()?.status === status,
    () => `a ${status} ${method} in the activity: ${JSON.stringify(activity.entries().slice(0, 3))}`,
  );
  return newest()!;
}
