// The closed door before the token: what a peer that has not authenticated can cost the window.

import { clientProof, createNonce } from '../../shared/authProof';
import { ErrorCode, PROTOCOL_VERSION, type HelloResult } from '../../shared/protocol';
import { until } from '../support/until';
import { startBridge, type Bridge } from './ipcKit';
import { RawPeer, type WireReply } from './rawPeer';

describe('before the handshake', () => {
  let bridge: Bridge;
  afterEach(async () => bridge?.stop());

  it('cuts off a peer that sends more than 64 KiB before its hello, in one line or many', async () => {
    bridge = await startBridge();
    const oneLine = await RawPeer.connect(bridge.socketPath);
    oneLine.socket.write('x'.repeat(64 * 1024 + 1));
    await oneLine.whenClosed();
    expect((await oneLine.reply(null)).error?.code).toBe(ErrorCode.LineTooLong);

    // Blank lines are not invalid, but they count against the budget.
    const manyLines = await RawPeer.connect(bridge.socketPath);
    manyLines.socket.write('\n'.repeat(70 * 1024));
    await manyLines.whenClosed();

    // 8 MiB in one write arrives in many chunks: the budget counts them all.
    const flood = await RawPeer.connect(bridge.socketPath);
    flood.socket.write(Buffer.alloc(8 * 1024 * 1024, 0x20));
    await flood.whenClosed();
    await until(() => bridge.server.connectionCount === 0, 'the window to close all three peers');
  });

  it('cuts off a silent peer when the authentication deadline passes, and a slow handshake too', async () => {
    // Long enough for an honest handshake on a busy machine; each peer cut off waits it out.
    bridge = await startBridge({ limits: { authTimeoutMs: 1_000 } });
    const silent = await RawPeer.connect(bridge.socketPath);
    await silent.whenClosed();
    expect((await silent.reply(null)).error?.message).toMatch(/did not authenticate in time/i);

    // A hello in time is not enough: the deadline covers the whole handshake.
    const halfway = await RawPeer.connect(bridge.socketPath);
    halfway.send({
      type: 'hello',
      id: 'hello',
      clientNonce: 'a'.repeat(64),
      protocolVersion: 2,
      client: { name: 'x', version: '1', pid: 1 },
    });
    expect((await halfway.challenge('hello')).result?.serverNonce).toBeDefined();
    await halfway.whenClosed();

    // An honest client inside the deadline is unaffected, and stays connected after it.
    const honest = await RawPeer.connect(bridge.socketPath);
    expect((await honest.hello(bridge.token)).result?.server).toBeDefined();
    // A silent peer that connects after it is cut off after the honest one's deadline has passed.
    const later = await RawPeer.connect(bridge.socketPath);
    await later.whenClosed();
    honest.send({ type: 'request', id: 'after-the-deadline', method: 'get-review', params: {} });
    expect((await honest.reply('after-the-deadline')).result).toBeDefined();
    expect(honest.closed).toBe(false);
    honest.destroy();
  });

  it('serves a request sent in the same write as the auth that opens the door', async () => {
    bridge = await startBridge();
    const peer = await RawPeer.connect(bridge.socketPath);
    const clientNonce = createNonce();
    peer.send({
      type: 'hello',
      id: 'hello',
      clientNonce,
      protocolVersion: PROTOCOL_VERSION,
      client: { name: 'x', version: '1', pid: 1 },
    });
    const challenge = await peer.challenge('hello');
    const auth = JSON.stringify({
      type: 'auth',
      id: 'auth',
      clientProof: clientProof(bridge.token, challenge.result!.serverNonce, clientNonce),
    });
    peer.socket.write(
      auth + '\n' + JSON.stringify({ type: 'request', id: 'right-behind', method: 'get-selection', params: {} }) + '\n',
    );
    expect(((await peer.reply('auth')) as WireReply<HelloResult>).result!.server.name).toBe('redline');
    expect((await peer.reply('right-behind')).result).toEqual({ editor: null });
    peer.destroy();
  });

  it('closes at the first invalid line, whatever it is', async () => {
    bridge = await startBridge();
    const lines = [
      'not json',
      '{"type":"request","id":"r","method":"get-review","params":{}}',
      '{"type":"hello","id":"h","token":"' +
        bridge.token +
        '","protocolVersion":2,"client":{"name":"v1","version":"1","pid":1}}',
      '{"type":"auth","id":"a","clientProof":"' + '0'.repeat(64) + '"}',
      '[]',
    ];
    for (const line of lines) {
      const peer = await RawPeer.connect(bridge.socketPath);
      peer.socket.write(line + '\n' + '{"type":"request","id":"after","method":"get-review","params":{}}\n');
      await peer.whenClosed();
      expect(peer.replies).toHaveLength(1);
      expect(peer.replies[0].error).toBeDefined();
      expect(peer.replies.some((r) => r.id === 'after')).toBe(false);
    }
  });

  it('holds at most 32 unauthenticated connections: the 33rd is closed at once, and room frees up as they go', async () => {
    bridge = await startBridge();
    const waiting = await Promise.all(Array.from({ length: 32 }, () => RawPeer.connect(bridge.socketPath)));
    await until(() => bridge.server.unauthenticatedCount === 32, 'the window to hold the 32 unauthenticated peers');
    const extra = await RawPeer.connect(bridge.socketPath);
    await extra.whenClosed();
    expect(extra.replies).toEqual([]);

    // Authenticated connections do not count: one of the 32 authenticates, and a new one fits.
    expect((await waiting[0].hello(bridge.token)).result).toBeDefined();
    await until(
      () => bridge.server.unauthenticatedCount === 31,
      'the authenticated peer to leave the unauthenticated count',
    );
    const fits = await RawPeer.connect(bridge.socketPath);
    expect((await fits.hello(bridge.token)).result).toBeDefined();
    for (const peer of [...waiting, fits]) peer.destroy();
  });

  it('logs each kind of refusal at most once per interval, with a count of the ones left out', async () => {
    bridge = await startBridge({ limits: { refusalLogIntervalMs: 60_000 } });
    for (let i = 0; i < 20; i++) {
      const peer = await RawPeer.connect(bridge.socketPath);
      peer.socket.write('garbage\n');
      await peer.whenClosed();
    }
    const flood = await RawPeer.connect(bridge.socketPath);
    flood.socket.write('y'.repeat(70 * 1024));
    await flood.whenClosed();
    const refusals = bridge.logs.filter((l) => l.event === 'connection-refused');
    expect(refusals.map((l) => l.fields?.kind)).toEqual(['invalid', 'flood']);
    // A refused peer is misconfigured or hostile: worth a warning, where a connection is not.
    expect(refusals.map((l) => l.level)).toEqual(['warn', 'warn']);
  });

  it('logs the routine life of a connection at debug only', async () => {
    bridge = await startBridge();
    const client = bridge.client();
    await client.request('get-review', {});
    await client.dispose();
    await until(() => bridge.server.connectionCount === 0, 'the window to see the client go');
    const events = bridge.logs.map((l) => l.event);
    expect(events).toEqual(expect.arrayContaining(['listening', 'client-authenticated', 'connection-closed']));
    expect(bridge.logs.filter((l) => l.level !== 'debug')).toEqual([]);
  });
});
