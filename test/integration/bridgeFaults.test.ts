// The bridge when things go wrong: bad tokens, garbage, oversized lines, restarts, hangs.

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { ErrorCode, type ResultOf } from '../../shared/protocol';
import { IpcServer } from '../../extension/src/ipc/ipcServer';
import { assertBuilt, connectMcp, hostEnv, startHost, type Host } from './harness';
import { RawPeer, byId, type WireReply } from './rawPeer';
import { until } from '../support/until';

describe('bridge faults', () => {
  let host: Host;
  beforeEach(async () => {
    assertBuilt();
    host = await startHost({ maxLineBytes: 1024 * 1024 });
  });
  afterEach(async () => host?.stop());

  it('refuses a wrong proof of the token and closes the connection', async () => {
    const raw = await RawPeer.connect(host.socketPath);
    const reply = await raw.hello('0'.repeat(32));
    expect(reply.error?.code).toBe(ErrorCode.Unauthorized);
    await raw.whenClosed();
  });

  it('refuses a request sent before hello, and a second hello', async () => {
    const early = await RawPeer.connect(host.socketPath);
    early.send({ type: 'request', id: 'r1', method: 'get-review', params: {} });
    expect((await early.waitFor(byId('r1'))).error?.code).toBe(ErrorCode.Unauthorized);
    await early.whenClosed();

    const twice = await RawPeer.connect(host.socketPath);
    await twice.hello(host.token);
    const again = await twice.hello(host.token, 'hello-2');
    expect(again.error?.code).toBe(ErrorCode.InvalidMessage);
    twice.destroy();
  });

  it('the MCP server reports a window with another token as a tool error that says what to do', async () => {
    const mcp = await connectMcp(hostEnv(host, { REDLINE_IPC_TOKEN: 'f'.repeat(32) }));
    try {
      const result = (await mcp.client.callTool({ name: 'get-review', arguments: {} })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/could not prove that it holds the token in REDLINE_IPC_TOKEN/);
      expect(result.content[0].text).toMatch(/open a new terminal/);
    } finally {
      await mcp.close();
    }
  });

  it('answers 1,000 garbage lines with errors and then serves a valid request', async () => {
    const raw = await RawPeer.connect(host.socketPath);
    await raw.hello(host.token);
    const garbage = [
      'not json',
      '{"type":"request"',
      '[]',
      '42',
      '{"type":"request","id":"g","method":"present-review","params":{"content":7}}',
      '{"type":"request","id":"h","method":"no-such-method","params":{}}',
      '{"type":"launch-missiles","id":"i"}',
      '\u0000\u0001\u0002',
    ];
    for (let i = 0; i < 1000; i++) raw.sendRaw(garbage[i % garbage.length] + '\n');
    const reply = await raw.request('present-review', { content: '# Still here' }, { id: 'valid' });
    expect(reply.result!.revision).toBeGreaterThan(0);
    const errors = raw.replies.filter((r) => r.error);
    expect(errors).toHaveLength(1000);
    expect(errors.some((e) => e.error!.code === ErrorCode.MethodNotFound)).toBe(true);
    expect(errors.some((e) => e.error!.code === ErrorCode.InvalidParams)).toBe(true);
    expect(errors.some((e) => e.error!.code === ErrorCode.ParseError)).toBe(true);
    expect(host.store.current?.markdown).toBe('# Still here');
    raw.destroy();
  });

  it('closes a connection that sends an oversized line and keeps serving the others', async () => {
    const bystander = await RawPeer.connect(host.socketPath);
    await bystander.hello(host.token);
    const offender = await RawPeer.connect(host.socketPath);
    await offender.hello(host.token);
    offender.sendRaw('x'.repeat(1024 * 1024 + 10));
    const error = await offender.waitFor((r) => r.error?.code === ErrorCode.LineTooLong);
    expect(error.error?.message).toMatch(/larger than/);
    await offender.whenClosed();
    bystander.send({ type: 'request', id: 'after', method: 'get-review', params: {} });
    expect((await bystander.waitFor(byId('after'))).result).toBeDefined();
    bystander.destroy();
  });

  it('a restarted server serves the next call (the client reconnects by itself)', async () => {
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      const first = await mcp.client.callTool({ name: 'present-review', arguments: { content: '# Before' } });
      expect(first.isError).toBeFalsy();
      await host.restart();
      const second = await mcp.client.callTool({
        name: 'present-review',
        arguments: { content: '# After', mode: 'append' },
      });
      expect(second.isError).toBeFalsy();
      expect(host.store.current?.markdown).toBe('# Before\n\n# After');
    } finally {
      await mcp.close();
    }
  });

  it('heals when the server comes back during the reconnect backoff', async () => {
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      await mcp.client.callTool({ name: 'get-review', arguments: {} });
      await host.server.dispose();
      const calling = mcp.client.callTool({ name: 'get-review', arguments: {} });
      // Back once the MCP server has taken the call up (it logs the request before it connects).
      const requests = () =>
        mcp.stderr().match(/"event":"request","id":"[^"]+","method":"get-review"(?=[,}])/g)?.length ?? 0;
      await until(() => requests() >= 2, 'the MCP server to take the call up while the window is away');
      await host.restart();
      const result = await calling;
      expect(result.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });

  it('fails a pending call at once when the server goes away, instead of waiting for the timeout', async () => {
    host.editor.hang = new Promise<never>(() => undefined);
    // A timeout far past jest's limit: only the closed connection can end the call in time.
    const mcp = await connectMcp(hostEnv(host, { REDLINE_TIMEOUT_MS: '600000' }), host.workspace);
    try {
      await mcp.client.callTool({ name: 'get-review', arguments: {} });
      const pending = mcp.client.callTool({ name: 'get-selection', arguments: {} });
      await until(() => host.editor.selectionsAsked === 1, 'get-selection to reach the window');
      await host.server.dispose();
      const result = (await pending) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/connection to VS Code closed/);
    } finally {
      await mcp.close();
    }
  });

  it('times out a call that VS Code never answers, per REDLINE_TIMEOUT_MS', async () => {
    host.editor.hang = new Promise<never>(() => undefined);
    const mcp = await connectMcp(hostEnv(host, { REDLINE_TIMEOUT_MS: '300' }), host.workspace);
    try {
      const result = (await mcp.client.callTool({ name: 'get-selection', arguments: {} })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/did not answer get-selection within 300 ms/);
    } finally {
      await mcp.close();
    }
  });

  it('frees a connection when its MCP server is killed mid-request', async () => {
    host.editor.hang = new Promise<never>(() => undefined);
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    void mcp.client.callTool({ name: 'get-selection', arguments: {} }).catch(() => undefined);
    await until(() => host.server.connectionCount === 1, 'the MCP server to connect');
    await mcp.close();
    await until(() => host.server.connectionCount === 0, "the window to free the killed server's connection");
    expect(host.server.connectionCount).toBe(0);
  });

  it('answers a cancelled request at once while its handler still hangs, and serves the calls beside it', async () => {
    host.editor.hang = new Promise<never>(() => undefined);
    const raw = await RawPeer.connect(host.socketPath);
    await raw.hello(host.token);
    raw.send({ type: 'request', id: 'slow', method: 'get-selection', params: {} });
    raw.send({ type: 'request', id: 'beside', method: 'present-review', params: { content: '# beside' } });
    raw.send({ type: 'cancel', id: 'slow' });
    expect((await raw.waitFor(byId('slow'))).error?.code).toBe(ErrorCode.Cancelled);
    const beside = (await raw.waitFor(byId('beside'))) as WireReply<ResultOf<'present-review'>>;
    expect(beside.result!.revision).toBeGreaterThan(0);
    raw.destroy();
  });
});

describe('socket files', () => {
  it('replaces a stale socket file from a dead process, and leaves a live one alone', async () => {
    const host = await startHost();
    try {
      await host.server.dispose();
      // A socket file left behind by a process that died without cleaning up.
      leaveStaleSocket(host.socketPath);
      expect(fs.existsSync(host.socketPath)).toBe(true);
      const staleIdentity = fs.statSync(host.socketPath, { bigint: true }).ctimeNs;
      const fresh = await host.restart();
      expect(fs.statSync(host.socketPath, { bigint: true }).ctimeNs).not.toBe(staleIdentity);
      await expect(
        IpcServer.start({
          socketPath: host.socketPath,
          token: 't',
          handlers: {} as never,
          serverInfo: { name: 'x', version: '1', pid: 1 },
        }),
      ).rejects.toThrow(/Another live Redline host/);
      const raw = await RawPeer.connect(host.socketPath);
      expect((await raw.hello(host.token)).result).toBeDefined();
      raw.destroy();
      expect(fresh).toBe(host.server);
    } finally {
      await host.stop();
    }
  });

  it('creates the socket with mode 0600 and removes it on dispose', async () => {
    const host = await startHost();
    try {
      expect(fs.statSync(host.socketPath).mode & 0o777).toBe(0o600);
      await host.server.dispose();
      expect(fs.existsSync(host.socketPath)).toBe(false);
    } finally {
      await host.stop();
    }
  });
});

/** Binds a socket in a child process that is then killed, so its file stays behind. */
function leaveStaleSocket(socketPath: string): void {
  const script = `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`;
  spawnSync(process.execPath, ['-e', script], { timeout: 10_000 });
}
