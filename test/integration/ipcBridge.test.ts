// The real IpcClient against the real IpcServer: sizes, concurrency, deadlines, backpressure,
// and what an id-less error does to the calls in flight.

import { encodeLine } from '../../shared/framing';
import { ErrorCode, IpcError, MAX_FRAME_BYTES, MAX_REVIEW_BYTES } from '../../shared/protocol';
import { CLIENT_DEADLINE_GRACE_MS } from '../../extension/src/ipc/requestRunner';
import { until } from '../support/until';
import { failure, presented, startBridge, type Bridge } from './ipcKit';
import { RawPeer } from './rawPeer';

describe('one byte limit, checked where it bites', () => {
  let bridge: Bridge;
  afterEach(async () => bridge?.stop());

  it('delivers 6,000,000 control characters (36 MB once escaped) while a neighbour call on the same connection succeeds', async () => {
    const received: number[] = [];
    bridge = await startBridge({
      handlers: {
        'present-review': (params) => {
          received.push(params.content.length);
          return presented(params.content);
        },
      },
    });
    const client = bridge.client();
    await client.request('get-review', {}); // one connection for both calls below
    const content = '\u0001'.repeat(6_000_000);
    expect(encodeLine({ params: { content } }).length).toBeGreaterThan(32 * 1024 * 1024);
    const [review, neighbour] = await Promise.all([
      client.request('present-review', { content }),
      client.request('get-selection', {}),
    ]);
    expect(received).toEqual([6_000_000]);
    expect(review.title).toBe('6000000 bytes');
    expect(neighbour).toEqual({ editor: null });
    expect(bridge.server.connectionCount).toBe(1);
  });

  it('refuses a request too large to frame before sending it, saying how large and how to split it; the connection lives on', async () => {
    bridge = await startBridge();
    const client = bridge.client();
    await client.request('get-review', {});
    // Over the schema's 10 MiB and, escaped, over the frame limit.
    const content = '\u0001'.repeat(MAX_REVIEW_BYTES + 1024 * 1024);
    const error = await failure(client.request('present-review', { content }));
    expect(error).toBeInstanceOf(IpcError);
    expect(error.code).toBe(ErrorCode.TooLarge);
    expect(error.message).toMatch(/\d+\.\d MiB once encoded/);
    expect(error.message).toMatch(/mode "append"/);
    expect(await client.request('get-selection', {})).toEqual({ editor: null });
    expect(bridge.server.connectionCount).toBe(1);
  });

  it('an id-less error fails the calls in flight with its own message, and the next call reconnects', async () => {
    // A low line limit on the server stands in for any error it cannot tie to a request.
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    bridge = await startBridge({
      maxLineBytes: 1024 * 1024,
      handlers: { 'get-selection': async () => (await hung, { editor: null }) },
    });
    const client = bridge.client();
    const inFlight = client.request('get-selection', {});
    await until(() => client.pendingCount === 1, 'the request to be pending');
    const oversized = client.request('present-review', { content: 'x'.repeat(2 * 1024 * 1024) });
    const [first, second] = await Promise.all([failure(inFlight), failure(oversized)]);
    for (const error of [first, second]) {
      expect(error.code).toBe(ErrorCode.LineTooLong);
      expect(error.message).toMatch(/larger than 1048576 bytes/);
      expect(error.message).not.toMatch(/reloaded/);
    }
    release();
    expect(await client.request('get-review', {})).toMatchObject({ revision: 0 });
  });
});

describe('bounded work on one connection', () => {
  let bridge: Bridge;
  afterEach(async () => bridge?.stop());

  it('a hung handler gets a Timeout and its signal aborted, while calls beside it succeed', async () => {
    let aborted = 0;
    bridge = await startBridge({
      limits: { requestTimeoutMs: 300 },
      handlers: {
        'open-location': (_params, context) =>
          new Promise(() => context.signal.addEventListener('abort', () => aborted++)),
      },
    });
    // A peer that does not say how long it waits gets the window's deadline.
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    peer.send({ type: 'request', id: 'hung', method: 'open-location', params: { reference: 'a.ts:1' } });
    const client = bridge.client();
    const normal = await Promise.all(Array.from({ length: 20 }, () => client.request('get-selection', {})));
    expect(normal).toHaveLength(20);
    const reply = await peer.reply('hung');
    expect(reply.error?.code).toBe(ErrorCode.Timeout);
    expect(reply.error?.message).toMatch(/did not finish open-location within 300 ms/);
    expect(aborted).toBe(1);
    expect(await client.request('get-review', {})).toMatchObject({ revision: 0 });
    peer.destroy();
  });

  it("the client's own timeout, sent with the request, sets the window's deadline for it (a second later)", async () => {
    bridge = await startBridge({
      limits: { requestTimeoutMs: 300 },
      handlers: { 'open-location': (_params, context) => new Promise(() => context.signal.throwIfAborted()) },
    });
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    const started = Date.now();
    peer.send({
      type: 'request',
      id: 'longer',
      method: 'open-location',
      params: { reference: 'a.ts:1' },
      timeoutMs: 500,
    });
    const reply = await peer.reply('longer');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500 + CLIENT_DEADLINE_GRACE_MS - 50);
    expect(reply.error?.message).toMatch(/within 1500 ms/);
    // Out of bounds: refused as an invalid message, not run with a deadline nobody chose.
    peer.send({
      type: 'request',
      id: 'forever',
      method: 'open-location',
      params: { reference: 'a.ts:1' },
      timeoutMs: 1e12,
    });
    expect((await peer.reply('forever')).error?.code).toBe(ErrorCode.InvalidMessage);
    peer.destroy();
  });

  it('past the in-flight limit, requests wait (reading stops); past the short queue, they are refused as busy', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    bridge = await startBridge({
      limits: { maxInFlight: 2, maxQueued: 3 },
      handlers: { 'get-selection': async () => (started++, await gate, { editor: null }) },
    });
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    // One write, so all ten are read before reading stops: 2 run, 3 wait, 5 are refused.
    peer.socket.write(
      Array.from(
        { length: 10 },
        (_, i) => JSON.stringify({ type: 'request', id: `r${i}`, method: 'get-selection', params: {} }) + '\n',
      ).join(''),
    );
    const busy = await Promise.all([5, 6, 7, 8, 9].map((i) => peer.reply(`r${i}`)));
    for (const reply of busy) {
      expect(reply.error?.code).toBe(ErrorCode.Busy);
      expect(reply.error?.message).toMatch(/retry when some have answered/);
    }
    expect(started).toBe(2);
    release();
    for (let i = 0; i < 5; i++) expect((await peer.reply(`r${i}`)).result).toEqual({ editor: null });
    expect(started).toBe(5);
    peer.send({ type: 'request', id: 'later', method: 'get-review', params: {} });
    expect((await peer.reply('later')).result).toBeDefined();
    peer.destroy();
  });

  it('with the default limits, 1,000 requests written at once from one connection all succeed', async () => {
    bridge = await startBridge({
      handlers: { 'get-selection': async () => (await new Promise((r) => setImmediate(r)), { editor: null }) },
    });
    const client = bridge.client();
    const results = await Promise.all(Array.from({ length: 1000 }, () => client.request('get-selection', {})));
    expect(results.filter((r) => r.editor === null)).toHaveLength(1000);
  });

  it('a cancel answers a running request as cancelled at once, and a cancel for an unknown id keeps nothing', async () => {
    let aborted = false;
    bridge = await startBridge({
      handlers: {
        'get-selection': (_p, context) =>
          new Promise(() => context.signal.addEventListener('abort', () => (aborted = true))),
      },
    });
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    for (let i = 0; i < 10_000; i++) peer.send({ type: 'cancel', id: `never-sent-${i}` });
    peer.send({ type: 'request', id: 'slow', method: 'get-selection', params: {} });
    peer.send({ type: 'cancel', id: 'slow' });
    expect((await peer.reply('slow')).error?.code).toBe(ErrorCode.Cancelled);
    expect(aborted).toBe(true);
    // Nothing answered the 10,000 unknown cancels, and the connection still serves.
    peer.send({ type: 'request', id: 'after', method: 'get-review', params: {} });
    expect((await peer.reply('after')).result).toBeDefined();
    expect(peer.replies.filter((r) => String(r.id).startsWith('never-sent'))).toEqual([]);
    peer.destroy();
  });

  it('a peer that floods invalid lines and never reads is stopped at a few MiB of unread answers, not grown without bound', async () => {
    bridge = await startBridge();
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    peer.socket.pause(); // never reads again
    const line = Buffer.from('x\n'.repeat(32 * 1024)); // 32,768 invalid lines per write
    const connection = () =>
      [
        ...(
          bridge.server as unknown as {
            connections: Set<{ unsentBytes: number; pausedFor: Set<string>; lines: { idle: boolean } }>;
          }
        ).connections,
      ][0];
    let sent = 0;
    // 64 MiB offered: 32 million error answers, about 2.5 GB if each were queued.
    for (let i = 0; i < 1024 && !peer.closed; i++) {
      sent += line.length;
      if (peer.socket.write(line)) continue;
      const drained = await Promise.race([
        new Promise<boolean>((r) => peer.socket.once('drain', () => r(true))),
        new Promise<boolean>((r) => setTimeout(() => r(false), 300)),
      ]);
      if (!drained) break; // the server stopped reading from us
    }
    // Measured once the window has stopped reading from it and written what it had answered: from
    // then on nothing more is queued for it.
    const settled = () => !connection() || (connection().pausedFor.has('writes') && connection().lines.idle);
    await until(settled, 'the window to stop reading from the flooding peer');
    const unsent = connection()?.unsentBytes ?? 0;
    console.log(
      `invalid-line flood: offered ${(sent / 1024 / 1024).toFixed(1)} MiB; server holds ${(unsent / 1024 / 1024).toFixed(2)} MiB of unread answers`,
    );
    expect(unsent).toBeLessThan(8 * 1024 * 1024);
    // It stopped reading instead of answering everything: the peer could not hand over its 64 MiB.
    expect(sent).toBeLessThan(line.length * 1024);
    peer.destroy();
    // And the server serves others throughout.
    const client = bridge.client();
    expect(await client.request('get-review', {})).toMatchObject({ revision: 0 });
  });

  it('drops a peer whose unread answers pass the hard cap, and logs why', async () => {
    bridge = await startBridge({ limits: { writePauseBytes: 16 * 1024, writeDropBytes: 256 * 1024 } });
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    peer.socket.pause(); // never reads again; events keep coming
    const bystander = bridge.client();
    await bystander.request('get-review', {});
    // In batches of 1,000 (about 50 KiB), with turns of the event loop between them for the readers.
    for (let i = 0; i < 1_000 && bridge.server.connectionCount === 2; i++) {
      for (let j = 0; j < 1_000; j++) bridge.server.broadcast('review-changed', { revision: i * 1_000 + j });
      await new Promise((r) => setTimeout(r, 1));
    }
    await until(() => bridge.server.connectionCount === 1, 'the window to drop the peer past the hard cap');
    expect(bridge.logs.some((l) => l.event === 'connection-refused' && l.fields?.kind === 'backpressure')).toBe(true);
    // The bystander reads its events, so it stays.
    expect(await bystander.request('get-selection', {})).toEqual({ editor: null });
    peer.destroy();
  });
});

it('MAX_FRAME_BYTES covers the worst-case escaping of the largest review the schema accepts', () => {
  const params = {
    content: '\u0001'.repeat(MAX_REVIEW_BYTES),
    mode: 'replace',
    title: '\u0001'.repeat(500),
    section: '\u0001'.repeat(1000),
    cwd: '\u0001'.repeat(4096),
  };
  const line = encodeLine({ type: 'request', id: 'x'.repeat(64), method: 'present-review', params });
  expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  const surrogates = encodeLine({
    type: 'request',
    id: 'x'.repeat(64),
    method: 'present-review',
    params: { content: '\ud800'.repeat(MAX_REVIEW_BYTES / 3) },
  });
  expect(Buffer.byteLength(surrogates)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
});
