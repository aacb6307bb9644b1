// Caps across a window's connections: eight authenticated peers that never read must not hold
// eight times one peer's allowance, and a window keeps a bounded number of authenticated
// connections, closing the one idle the longest first.

import { DEFAULT_LIMITS } from '../../extension/src/ipc/ipcServer';
import { pastAuthenticatedCap, pastUnsentCap, type CappedConnection } from '../../extension/src/ipc/windowCaps';
import { until } from '../support/until';
import { startBridge, type Bridge } from '../integration/ipcKit';
import { RawPeer } from '../integration/rawPeer';

const MiB = 1024 * 1024;

describe('which connection a window cap closes', () => {
  const connection = (id: number, more: Partial<CappedConnection> = {}): CappedConnection => ({
    id,
    isAuthenticated: true,
    isIdle: true,
    lastActive: id,
    unsentBytes: 0,
    ...more,
  });

  it('past the authenticated cap: the one idle the longest, else the newest', () => {
    const [a, b, c] = [
      connection(1, { lastActive: 30 }),
      connection(2, { lastActive: 10 }),
      connection(3, { lastActive: 20, isIdle: false }),
    ];
    const newest = connection(4, { lastActive: 40 });
    expect(pastAuthenticatedCap([a, b, c, newest], newest, 4)).toBeUndefined();
    expect(pastAuthenticatedCap([a, b, c, newest], newest, 3)).toBe(b);
    const busy = [a, b].map((x) => ({ ...x, isIdle: false }));
    expect(pastAuthenticatedCap([...busy, c, newest], newest, 3)).toBe(newest);
    // Connections still proving themselves do not count.
    expect(pastAuthenticatedCap([a, connection(9, { isAuthenticated: false }), newest], newest, 2)).toBeUndefined();
  });

  it('past the unsent cap: those holding the most, until the rest fit', () => {
    const held = [
      connection(1, { unsentBytes: 50 }),
      connection(2, { unsentBytes: 10 }),
      connection(3, { unsentBytes: 80 }),
      connection(4, { unsentBytes: 30 }),
    ];
    expect(pastUnsentCap(held, 200)).toEqual([]);
    expect(pastUnsentCap(held, 100).map((c) => c.id)).toEqual([3]);
    expect(pastUnsentCap(held, 80).map((c) => c.id)).toEqual([3, 1]);
  });
});

describe('eight authenticated connections that never read', () => {
  let bridge: Bridge | undefined;
  afterEach(async () => bridge?.stop());

  it('hold no more than the window-wide cap between them, and the window serves others throughout', async () => {
    const review = 'x'.repeat(4 * MiB);
    bridge = await startBridge({
      handlers: { 'get-review': () => ({ revision: 1, markdown: review, sections: [], findings: [] }) },
    });
    const totalUnsent = () =>
      [...(bridge!.server as unknown as { connections: Set<{ unsentBytes: number }> }).connections].reduce(
        (sum, c) => sum + c.unsentBytes,
        0,
      );
    let peakUnsent = 0;
    const peers: RawPeer[] = [];
    for (let i = 0; i < 8; i++) {
      const peer = await RawPeer.connect(bridge.socketPath);
      await peer.hello(bridge.token);
      peer.socket.pause(); // never reads again
      // 30 replies of 4 MiB, asked in one write so that all are read before the first is answered:
      // 120 MiB, just under one connection's own allowance, so each alone would keep it all.
      const requests = Array.from(
        { length: 30 },
        (_, j) => JSON.stringify({ type: 'request', id: `r${i}-${j}`, method: 'get-review', params: {} }) + '\n',
      );
      peer.socket.write(requests.join(''));
      peers.push(peer);
      await new Promise((resolve) => setTimeout(resolve, 100));
      peakUnsent = Math.max(peakUnsent, totalUnsent());
    }
    // Large replies are encoded a slice per task, so the last of them reach the sockets a little later.
    await until(() => {
      peakUnsent = Math.max(peakUnsent, totalUnsent());
      return bridge!.server.connectionCount === 1;
    }, 'the window to close the seven peers past its cap');
    process.stdout.write(
      `[window caps] 8 non-reading peers asking 120 MiB each: peak unsent across the window ${(peakUnsent / MiB).toFixed(0)} MiB ` +
        `(cap ${(DEFAULT_LIMITS.maxTotalUnsentBytes / MiB).toFixed(0)} MiB; without it ${((8 * 120 * MiB) / MiB).toFixed(0)} MiB); ` +
        `${8 - bridge.server.connectionCount} connections closed\n`,
    );
    expect(peakUnsent).toBeLessThanOrEqual(DEFAULT_LIMITS.maxTotalUnsentBytes);
    expect(totalUnsent()).toBeLessThanOrEqual(DEFAULT_LIMITS.maxTotalUnsentBytes);
    expect(bridge.server.connectionCount).toBe(1);
    expect(
      bridge.logs.some((line) => line.event === 'connection-refused' && line.fields?.kind === 'window-backpressure'),
    ).toBe(true);
    const client = bridge.client();
    expect((await client.request('get-review', {})).revision).toBe(1);
    for (const peer of peers) peer.destroy();
  });
});

describe('the cap on authenticated connections', () => {
  let bridge: Bridge | undefined;
  afterEach(async () => bridge?.stop());

  it('closes the connection idle the longest for a new one, and the new one when all others are busy', async () => {
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    bridge = await startBridge({
      limits: { maxAuthenticated: 3, refusalLogIntervalMs: 0 },
      handlers: { 'get-selection': async () => (await hanging, { editor: null }) },
    });
    const connect = async () => {
      const peer = await RawPeer.connect(bridge!.socketPath);
      await peer.hello(bridge!.token);
      return peer;
    };
    const [oldest, middle, busy] = [await connect(), await connect(), await connect()];
    busy.send({ type: 'request', id: 'busy', method: 'get-selection', params: {} });
    middle.send({ type: 'request', id: 'ping', method: 'get-review', params: {} });
    await middle.reply('ping');
    const fourth = await connect();
    await until(() => oldest.closed, 'the idlest connection to be closed');
    expect([middle.closed, busy.closed, fourth.closed]).toEqual([false, false, false]);
    // Now every other one is busy: the newcomer is the one closed.
    middle.send({ type: 'request', id: 'busy-too', method: 'get-selection', params: {} });
    fourth.send({ type: 'request', id: 'busy-three', method: 'get-selection', params: {} });
    await until(() => bridge!.server.authenticatedCount === 3, 'three authenticated connections');
    const fifth = await RawPeer.connect(bridge.socketPath);
    await fifth.hello(bridge.token).catch(() => undefined);
    await until(() => fifth.closed, 'the newcomer to be closed');
    expect([middle.closed, busy.closed, fourth.closed]).toEqual([false, false, false]);
    expect(bridge.logs.filter((line) => line.fields?.kind === 'too-many-authenticated')).toHaveLength(2);
    release();
    expect((await busy.reply('busy')).result).toEqual({ editor: null });
    for (const peer of [middle, busy, fourth]) peer.destroy();
  });
});
