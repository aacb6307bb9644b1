// Rotate Token while an assistant is mid-conversation: the window retires the old connection, which
// still answers what it was running, however long that takes, and refuses new requests unrun; the
// MCP server sends those again on a new connection with the new token (found afresh, as discovery
// does). A running await-review-feedback keeps waiting and gets the user's answer, and no request
// waits for the retired connection's.

import { ActivityLog } from '../../extension/src/activity/activityLog';
import { IpcClient } from '../../mcp-server/src/ipcClient';
import { waitForFeedback } from '../../mcp-server/src/feedbackWait';
import { createToken } from '../../extension/src/ipc/token';
import { ErrorCode } from '../../shared/protocol';
import { Logger } from '../../shared/logger';
import { settlement, until } from '../support/until';
import { startHost, type Host } from './harness';
import { startBridge } from './ipcKit';
import { RawPeer } from './rawPeer';
import { WAIT_DEADLINE_MS } from '../support/deadlines.cjs';

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
    timeouts: { all: WAIT_DEADLINE_MS },
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

it('answers the requests that were running at the rotation, and sends the next one on a new connection at once', async () => {
  await client.request('get-review-feedback', {});
  // Running when the token changes: a 4 MiB review takes a while to stage, render and store, and a
  // get-selection that the editor holds until the test lets it go.
  let release!: () => void;
  host.editor.hang = new Promise<void>((resolve) => (release = resolve));
  const held = client.request('get-selection', {});
  const running = client.request('present-review', {
    content: `# Big\n\n${'A line of review text.\n'.repeat(180_000)}`,
    mode: 'replace',
  });
  await until(() => host.editor.selectionsAsked === 1, 'the get-selection to reach the editor');
  await presentReached();
  rotate();
  const heldAnswer = settlement(held);
  const next = await client.request('get-review-feedback', {});
  expect(next.items).toEqual([]);
  // At once: answered while a request of the retired connection was still running.
  expect(heldAnswer.settled).toBe(false);
  expect(count('connected')).toBe(2);
  release();
  expect(await held).toEqual({ editor: null });
  expect((await running).revision).toBe(1);
});

it('keeps a running await-review-feedback waiting across a rotation, and hands it the answer', async () => {
  const waiting = waitForFeedback({ bridge: client, timeoutMs: WAIT_DEADLINE_MS, progressMs: 100 });
  // Without since, it reads the newest cursor, then the feedback after it, and waits.
  await until(() => count('reply', 'get-review-feedback') >= 2, 'the wait to read the feedback and wait');
  // A long request on the same connection keeps the retired one open until it is answered.
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

describe('a retired connection', () => {
  // The window's clock is faked, so that a request can run for minutes in a moment of the test's.
  afterEach(() => jest.useRealTimers());

  it('stays open for as long as its running request takes, then closes; a request waiting for a slot goes elsewhere', async () => {
    let release: (() => void) | undefined;
    const bridge = await startBridge({
      handlers: { 'get-selection': () => new Promise((resolve) => (release = () => resolve({ editor: null }))) },
      limits: { maxInFlight: 1 },
    });
    const peer = await RawPeer.connect(bridge.socketPath);
    try {
      await peer.hello(bridge.token);
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      // It may take 10 minutes, as the client says it will wait.
      peer.send({ type: 'request', id: 'running', method: 'get-selection', params: {}, timeoutMs: 600_000 });
      peer.send({ type: 'request', id: 'waiting', method: 'get-review', params: {} });
      await new Promise<void>((resolve) => {
        const check = () => (release ? resolve() : setImmediate(check));
        check();
      });
      bridge.server.rotateToken(createToken());
      // Not run here: the client sends it again on a new connection.
      expect((await peer.reply('waiting')).error?.code).toBe(ErrorCode.Retired);
      await peer.waitFor((reply) => reply.type === 'event');
      // Five minutes later, still open (it used to be cut after 10 s), and told of nothing new.
      jest.advanceTimersByTime(5 * 60_000);
      bridge.server.broadcast('review-changed', { revision: 2 });
      release!();
      expect((await peer.reply('running')).result).toEqual({ editor: null });
      expect(
        peer.replies.filter((reply) => reply.type === 'event').map((reply) => (reply as { event?: string }).event),
      ).toEqual(['connection-retiring']);
      // Answered, and quiet: it closes.
      jest.advanceTimersByTime(1_000);
      await peer.whenClosed();
    } finally {
      jest.useRealTimers();
      peer.destroy();
      await bridge.stop();
    }
  });

  it('ends a running request at its own deadline, and closes', async () => {
    let running = false;
    const bridge = await startBridge({
      handlers: { 'get-selection': () => ((running = true), new Promise(() => undefined)) },
    });
    const peer = await RawPeer.connect(bridge.socketPath);
    try {
      await peer.hello(bridge.token);
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      peer.send({ type: 'request', id: 'never', method: 'get-selection', params: {}, timeoutMs: 60_000 });
      await new Promise<void>((resolve) => {
        const check = () => (running ? resolve() : setImmediate(check));
        check();
      });
      bridge.server.rotateToken(createToken());
      await peer.waitFor((reply) => reply.type === 'event');
      // Its own deadline, and the second the window adds so that the client's timeout speaks first.
      jest.advanceTimersByTime(61_000);
      expect((await peer.reply('never')).error?.code).toBe(ErrorCode.Timeout);
      jest.advanceTimersByTime(1_000);
      await peer.whenClosed();
    } finally {
      jest.useRealTimers();
      peer.destroy();
      await bridge.stop();
    }
  });
});
