// What the MCP server's IpcClient gives away to whatever listens at the socket path, and how its
// calls end when cancelled before or while connecting.

import * as fs from 'fs';
import * as net from 'net';
import { encodeLine } from '../../shared/framing';
import { silentLogger } from '../../shared/logger';
import { ErrorCode, PROTOCOL_VERSION } from '../../shared/protocol';
import { createToken } from '../../extension/src/ipc/token';
import { IpcClient } from '../../mcp-server/src/ipcClient';
import { failure, FakeListener, startBridge, tempSocketPath } from './ipcKit';
import { RawPeer } from './rawPeer';
import { until } from '../support/until';

function clientFor(socketPath: string, token: string, retryDelaysMs: number[] = []): IpcClient {
  return new IpcClient({
    socketPath,
    token,
    clientInfo: { name: 'test', version: '1' },
    retryDelaysMs,
    log: silentLogger,
  });
}

describe('a listener that does not know the token', () => {
  let dir: string;
  let socketPath: string;
  let fake: FakeListener | undefined;
  beforeEach(() => ({ dir, socketPath } = tempSocketPath()));
  afterEach(async () => {
    await fake?.stop();
    fake = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Everything derived from the token that a listener could use or test a guess against offline. */
  function secretsOf(token: string): string[] {
    const base = [
      token,
      Buffer.from(token).toString('hex'),
      Buffer.from(token).toString('base64'),
      Buffer.from(token, 'hex').toString('base64'),
    ];
    return base.filter((s) => s.length >= 16);
  }

  it('learns nothing from a connecting client, which fails with an error that names the path', async () => {
    const token = createToken();
    // Answers like a server, with a made-up proof: it cannot compute the real one.
    fake = await FakeListener.start(socketPath, (line, socket) => {
      const message = JSON.parse(line);
      if (message.type === 'hello') {
        socket.write(
          encodeLine({
            type: 'response',
            id: message.id,
            result: { protocolVersion: PROTOCOL_VERSION, serverNonce: 'ab'.repeat(32), serverProof: 'cd'.repeat(32) },
          }),
        );
      } else
        socket.write(
          encodeLine({
            type: 'response',
            id: message.id,
            result: { protocolVersion: PROTOCOL_VERSION, server: { name: 'x', version: '1', pid: 1 } },
          }),
        );
    });
    const client = clientFor(socketPath, token);
    const error = await failure(client.request('present-review', { content: '# secret review' }));
    expect(error.code).toBe(ErrorCode.Unauthorized);
    expect(error.message).toContain(
      `Something other than this terminal's VS Code window is listening at ${socketPath}`,
    );

    const sent = fake.bytes;
    for (const secret of secretsOf(token)) expect(sent).not.toContain(secret);
    // One line, the hello: no auth (whose proof would depend on the fake's nonce), and no request.
    const lines = fake.lines as Array<Record<string, unknown>>;
    expect(lines.map((l) => l.type)).toEqual(['hello']);
    expect(Object.keys(lines[0]).sort()).toEqual(['client', 'clientNonce', 'id', 'protocolVersion', 'type']);
    expect(sent).not.toContain('secret review');
    await client.dispose();
  });

  it('a listener that answers garbage gets only the hello as well', async () => {
    const token = createToken();
    fake = await FakeListener.start(socketPath, (_line, socket) => socket.write('{"not":"redline"}\n'));
    const client = clientFor(socketPath, token);
    const error = await failure(client.request('get-review', {}));
    expect(error.message).toMatch(/did not answer as Redline does/);
    expect((fake.lines as Array<{ type: string }>).map((l) => l.type)).toEqual(['hello']);
    for (const secret of secretsOf(token)) expect(fake.bytes).not.toContain(secret);
    await client.dispose();
  });
});

describe('protocol versions', () => {
  it('a server of another version: the client says to update Redline, both for a refusal and for a challenge of another version', async () => {
    const { dir, socketPath } = tempSocketPath();
    try {
      let mode: 'refuse-as-v1' | 'challenge-v3' = 'refuse-as-v1';
      const fake = await FakeListener.start(socketPath, (line, socket) => {
        const { id } = JSON.parse(line);
        if (mode === 'refuse-as-v1') {
          socket.write(
            encodeLine({
              type: 'response',
              id,
              error: { code: ErrorCode.InvalidMessage, message: 'Invalid message: token: Required' },
            }),
          );
        } else {
          socket.write(
            encodeLine({
              type: 'response',
              id,
              result: { protocolVersion: 3, serverNonce: 'ab'.repeat(32), serverProof: 'cd'.repeat(32) },
            }),
          );
        }
      });
      const client = clientFor(socketPath, createToken());
      const old = await failure(client.request('get-review', {}));
      expect(old.code).toBe(ErrorCode.VersionMismatch);
      expect(old.message).toMatch(/different versions: update Redline, then restart the assistant/);
      mode = 'challenge-v3';
      const newer = await failure(client.request('get-review', {}));
      expect(newer.code).toBe(ErrorCode.VersionMismatch);
      expect(newer.message).toMatch(/speaks IPC protocol 3, but this MCP server speaks 2/);
      await client.dispose();
      await fake.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the real server refuses a hello of another version with a clear error', async () => {
    const bridge = await startBridge();
    try {
      const peer = await RawPeer.connect(bridge.socketPath);
      const reply = await peer.hello(bridge.token, 'hello-1', 1);
      expect(reply.error?.code).toBe(ErrorCode.VersionMismatch);
      expect(reply.error?.message).toMatch(/speaks IPC protocol 2, but the MCP server speaks 1.*Update Redline/);
      await peer.whenClosed();
    } finally {
      await bridge.stop();
    }
  });
});

describe('cancellation', () => {
  it('a call whose signal is already aborted sends nothing, not even a connection', async () => {
    const { dir, socketPath } = tempSocketPath();
    const fake = await FakeListener.start(socketPath);
    try {
      const client = clientFor(socketPath, createToken());
      const error = await failure(
        client.request('present-review', { content: '# x' }, { signal: AbortSignal.abort() }),
      );
      expect(error.code).toBe(ErrorCode.Cancelled);
      // The listener accepts connections in the order they were made: once it has accepted one
      // made now, it would have accepted any the client had started.
      const probe = net.connect(socketPath);
      try {
        await until(() => fake.connections.length > 0, 'the listener to accept a connection made after the call');
        expect(fake.connections).toHaveLength(1);
        expect(fake.received).toHaveLength(0);
      } finally {
        probe.destroy();
      }
      await client.dispose();
    } finally {
      await fake.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an abort during the reconnect back-off ends the call at once, not after the back-off', async () => {
    const { dir, socketPath } = tempSocketPath(); // nothing listens: every attempt fails and backs off
    try {
      // A back-off longer than jest's 5 s limit: the test can only pass if the abort ends the wait.
      const client = clientFor(socketPath, createToken(), [60_000]);
      const controller = new AbortController();
      const call = failure(client.request('get-review', {}, { signal: controller.signal }));
      setTimeout(() => controller.abort(), 50);
      const error = await call;
      expect(error.code).toBe(ErrorCode.Cancelled);
      await client.dispose();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an abort during the handshake ends the call at once', async () => {
    const { dir, socketPath } = tempSocketPath();
    const fake = await FakeListener.start(socketPath); // accepts, never answers the hello
    try {
      const client = clientFor(socketPath, createToken());
      const controller = new AbortController();
      const call = failure(client.request('get-review', {}, { signal: controller.signal }));
      await until(() => fake.received.length > 0, 'the client to send its hello');
      controller.abort();
      expect((await call).code).toBe(ErrorCode.Cancelled);
      await client.dispose();
    } finally {
      await fake.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
