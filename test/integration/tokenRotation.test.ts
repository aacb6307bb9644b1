// Rotate Token while an assistant is mid-conversation: the window retires the old connection, which
// still answers what it was running and refuses new requests unrun; the MCP server sends those
// again on a new connection with the new token (found afresh, as discovery does). A running
// await-review-feedback keeps waiting and gets the user's answer, and nobody waits out the grace.

import { ActivityLog } from '../../extension/src/activity/activityLog';
import { IpcClient } from '../../mcp-server/src/ipcClient';
import { waitForFeedback } from '../../mcp-server/src/feedbackWait';
import { createToken } from '../../extension/src/ipc/token';
import { Logger } from '../../shared/logger';
import { until } from '../support/until';
import { startHost, type Host } from './harness';

let host: Host;
let token: string;
let client: IpcClient;
/** What the window has been asked, newest first. */
let activity: ActivityLog;
/** The client's log: its connections and the replies it had. */
let events: Array<{ event: string; method?: unknown }>;
beforeEach(async () => {
  activity = new ActivityLog();
  host = await startHost({ observer: activity });
  token = host.token;
  events = [];
  // Read afresh for every connection, as the MCP server reads the window's discovery file.
  client = new IpcClient({
    locate: () => [{ socketPath: host.socketPath, token, via: 'test' }],
    clientInfo: { name: 'test', version: '1' },
    retryDelaysMs: [50, 100],
    log: new Logger(
      { write: ({ message, fields }) => void events.push({ event: message, method: fields?.method }) },
      'bridge',
    ),
  });
});
afterEach(async () => {
  await client.dispose();
  await host.stop();
});

/** Resolves once the present-review has reached the window: it takes a while to stage, render and store, so the rotation finds it in flight. */
const presentReached = () =>
  until(
    () => activity.entries().some((entry) => entry.method === 'present-review'),
    'the present-review to reach the window',
  );
const count = (event: string, method?: string) =>
  events.filter((e) => e.event === event && (method === undefined || e.method === method)).length;

function rotate(): void {
  token = createToken();
  host.server.rotateToken(token);
}

it('answers the request that was running at the rotation, and sends the next one on a new connection at once', async () => {
  await client.request('get-review-feedback', {});
  // Running when the token changes: a 4 MiB review takes a while to stage, render and store.
  const running = client.request('present-review', {
    content: `# Big\n\n${'A line of review text.\n'.repeat(180_000)}`,
    mode: 'replace',
  });
  await presentReached();
  rotate();
  const started = Date.now();
  const next = await client.request('get-review-feedback', {});
  const waitedMs = Date.now() - started;
  expect(next.items).toEqual([]);
  // Not the 10 s grace after which the retired connection is cut.
  expect(waitedMs).toBeLessThan(5_000);
  expect((await running).revision).toBe(1);
  process.stdout.write(`[rotation] the request after it was answered in ${waitedMs} ms\n`);
});

it('keeps a running await-review-feedback waiting across a rotation, and hands it the answer', async () => {
  const waiting = waitForFeedback({ bridge: client, timeoutMs: 20_000, progressMs: 100 });
  // Without since, it reads the newest cursor, then the feedback after it, and waits.
  await until(() => count('reply', 'get-review-feedback') >= 2, 'the wait to read the feedback and wait');
  // A long request on the same connection keeps the retired one open for its grace period.
  const running = client.request('present-review', {
    content: `# Big\n\n${'A line of review text.\n'.repeat(180_000)}`,
    mode: 'replace',
  });
  await presentReached();
  rotate();
  // The wait's next read is refused on the retired connection and sent again on a new one.
  await until(() => count('connected') >= 2, 'the client to connect with the new token');
  await host.conversation.add({ kind: 'message', text: 'Looks good, ship it.' });
  const result = await waiting;
  expect(result.timedOut).toBe(false);
  expect(result.items.map((item) => item.text)).toEqual(['Looks good, ship it.']);
  await running;
});
