// Faults: the extension host SIGKILLed mid-request and started again, the MCP server SIGKILLed
// mid-request, a stale socket left by a dead process, and two windows side by side. Hosts use the
// real socket directory and stable link (windowHost.ts); MCP servers are the built dist/mcp-server.js.

import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as fs from 'fs';
import { performance } from 'perf_hooks';
import { socketLocation } from '../../extension/src/ipc/socketLocation';
import { createToken } from '../../extension/src/ipc/token';
import { assertBuilt, connectMcp, RawClient, startHost, type Host } from '../integration/harness';
import { forkWindowHost, leaveStaleSocket, removeHostBundle, startWindowHost, useRuntimeDir, waitUntil, type ChildHost, type WindowHost } from './windowHost';

type ToolResult = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown> };
type Mcp = Awaited<ReturnType<typeof connectMcp>>;

// Latencies are printed, not asserted: absolute times belong to `npm run bench`. What is asserted
// is which event ended each call: the close of the socket, long before any timeout could fire.

const WINDOW_KEY = '0123456789ab';

function ipcEnv(socketPath: string, token: string): Record<string, string> {
  return { REDLINE_IPC_PATH: socketPath, REDLINE_IPC_TOKEN: token };
}

afterAll(removeHostBundle);

async function call(mcp: Mcp, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

describe('the extension host is killed (SIGKILL) mid-request', () => {
  let runtime: ReturnType<typeof useRuntimeDir>;
  const children: ChildHost[] = [];
  const windows: WindowHost[] = [];
  const mcps: Mcp[] = [];
  beforeEach(() => {
    assertBuilt();
    runtime = useRuntimeDir();
  });
  afterEach(async () => {
    await Promise.all(mcps.splice(0).map((mcp) => mcp.close()));
    await Promise.all(windows.splice(0).map((window) => window.stop()));
    for (const child of children.splice(0)) child.process.kill('SIGKILL');
    runtime.restore();
  });

  /** A window whose host runs in a child process, an MCP server connected to it, and a get-selection in flight. */
  async function hostWithPendingCall(token: string) {
    const child = await forkWindowHost(runtime.dir, WINDOW_KEY, token);
    children.push(child);
    const mcp = await connectMcp(ipcEnv(child.stablePath, token));
    mcps.push(mcp);
    expect((await call(mcp, 'get-review')).isError).toBeFalsy();
    // Timestamped where it settles, not where the test next looks at it.
    const pending = call(mcp, 'get-selection').then((result) => ({ result, at: performance.now() }));
    await child.selectionRequested;
    return { child, mcp, pending };
  }

  it('fails the pending MCP call when the host dies, not at its timeout, with an error that says what to do', async () => {
    const latencies: number[] = [];
    for (let round = 0; round < 3; round++) {
      const { child, pending } = await hostWithPendingCall(createToken());
      const killedAt = performance.now();
      child.process.kill('SIGKILL');
      const { result, at } = await pending;
      latencies.push(at - killedAt);
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/connection to VS Code closed before it replied/);
      expect(result.content[0].text).toMatch(/Call the tool again/);
      expect(result.content[0].text).not.toMatch(/did not answer/);
      await child.exited;
    }
    process.stdout.write(`host SIGKILL -> tool error: ${latencies.map((ms) => ms.toFixed(1)).join(', ')} ms\n`);
  });

  it("serves the next call once the window's host is started again", async () => {
    const token = createToken();
    const { child, mcp, pending } = await hostWithPendingCall(token);
    child.process.kill('SIGKILL');
    expect((await pending).result.isError).toBe(true);
    await child.exited;
    // The kill left the old host's socket and the stable link to it behind.
    expect(fs.existsSync(child.ownPath)).toBe(true);

    // The new host of the same window (a reload keeps the window's key and token).
    const window = await startWindowHost(WINDOW_KEY, token);
    windows.push(window);
    expect(fs.existsSync(child.ownPath)).toBe(false);
    const started = performance.now();
    const result = await call(mcp, 'present-review', { content: '# After the crash' });
    const elapsed = performance.now() - started;
    process.stdout.write(`first call after the host restarted: ${elapsed.toFixed(1)} ms\n`);
    expect(result.isError).toBeFalsy();
    expect(window.host.store.current?.markdown).toBe('# After the crash');
  });

  it('a call made while no host listens succeeds once the new host listens (the client retries)', async () => {
    const token = createToken();
    const { child, mcp, pending } = await hostWithPendingCall(token);
    child.process.kill('SIGKILL');
    await pending;
    await child.exited;
    // Issued during the gap of a reload: the MCP server retries with a short backoff.
    const result = call(mcp, 'present-review', { content: '# Made during the reload' }).then((r) => ({ r, at: performance.now() }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const window = await startWindowHost(WINDOW_KEY, token);
    windows.push(window);
    const listeningAt = performance.now();
    const { r, at } = await result;
    process.stdout.write(`call made during the reload gap: answered ${(at - listeningAt).toFixed(1)} ms after the host listened\n`);
    expect(r.isError).toBeFalsy();
    expect(window.host.store.current?.markdown).toBe('# Made during the reload');
  });
});

describe('the MCP server is killed (SIGKILL) mid-request', () => {
  let host: Host;
  beforeEach(async () => {
    assertBuilt();
    host = await startHost();
  });
  afterEach(async () => host?.stop());

  it('frees that connection: connectionCount returns to its previous value, and the host keeps serving', async () => {
    const bystander = await RawClient.connect(host.socketPath);
    await bystander.hello(host.token);
    const baseline = host.server.connectionCount;
    expect(baseline).toBe(1);
    let inFlight = 0;
    host.editor.getSelection = () => {
      inFlight++;
      return new Promise(() => undefined);
    };
    const freedIn: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const mcp = await connectMcp({ REDLINE_IPC_PATH: host.socketPath, REDLINE_IPC_TOKEN: host.token }, host.workspace);
      try {
        const pid = (mcp.client.transport as StdioClientTransport).pid!;
        void mcp.client.callTool({ name: 'get-selection', arguments: {} }).catch(() => undefined);
        await waitUntil(() => inFlight === round);
        expect(host.server.connectionCount).toBe(baseline + 1);
        process.kill(pid, 'SIGKILL');
        const killedAt = performance.now();
        await waitUntil(() => host.server.connectionCount === baseline);
        freedIn.push(performance.now() - killedAt);
      } finally {
        await mcp.close().catch(() => undefined);
      }
    }
    process.stdout.write(`MCP server SIGKILL -> connection freed: ${freedIn.map((ms) => ms.toFixed(1)).join(', ')} ms\n`);
    expect(host.server.connectionCount).toBe(baseline);
    bystander.send({ type: 'request', id: 'still-there', method: 'get-review', params: {} });
    expect(await bystander.waitFor((r) => (r as { id?: string }).id === 'still-there')).toMatchObject({ result: { revision: 0 } });
    bystander.destroy();
  });
});

describe('a stale socket file from a dead process', () => {
  let runtime: ReturnType<typeof useRuntimeDir>;
  beforeEach(() => {
    assertBuilt();
    runtime = useRuntimeDir();
  });
  afterEach(() => runtime.restore());

  it('a new host of the window starts cleanly: dead sockets swept, its own socket bound, the stable link moved', async () => {
    const token = createToken();
    const dead = await forkWindowHost(runtime.dir, WINDOW_KEY, token);
    dead.process.kill('SIGKILL');
    await dead.exited;
    expect(fs.statSync(dead.ownPath).isSocket()).toBe(true);
    expect(fs.readlinkSync(dead.stablePath)).toBe(dead.ownPath);
    // And a stale socket at the very path this process will take (a dead process with our pid).
    const mine = socketLocation(WINDOW_KEY);
    leaveStaleSocket(mine.ownPath);
    expect(fs.statSync(mine.ownPath).isSocket()).toBe(true);

    const window = await startWindowHost(WINDOW_KEY, token);
    try {
      expect(fs.existsSync(dead.ownPath)).toBe(false);
      expect(window.location.ownPath).toBe(mine.ownPath);
      expect(fs.statSync(mine.ownPath).mode & 0o777).toBe(0o600);
      expect(fs.readlinkSync(window.location.stablePath)).toBe(mine.ownPath);
      const mcp = await connectMcp(ipcEnv(window.location.stablePath, token));
      try {
        expect((await call(mcp, 'present-review', { content: '# Fresh host' })).isError).toBeFalsy();
        expect(window.host.store.current?.markdown).toBe('# Fresh host');
      } finally {
        await mcp.close();
      }
    } finally {
      await window.stop();
    }
  });
});

describe('two extension hosts side by side (two windows)', () => {
  let runtime: ReturnType<typeof useRuntimeDir>;
  beforeEach(() => {
    assertBuilt();
    runtime = useRuntimeDir();
  });
  afterEach(() => runtime.restore());

  it('each review lands in its own window and no other', async () => {
    const [a, b] = [await startWindowHost('aaaaaaaaaaaa'), await startWindowHost('bbbbbbbbbbbb')];
    const mcps: Mcp[] = [];
    try {
      expect(a.location.directory).toBe(b.location.directory);
      expect(a.location.ownPath).not.toBe(b.location.ownPath);
      expect(a.location.stablePath).not.toBe(b.location.stablePath);
      expect(a.host.token).not.toBe(b.host.token);
      expect(a.host.store).not.toBe(b.host.store);
      const [mcpA, mcpB] = await Promise.all([
        connectMcp(ipcEnv(a.location.stablePath, a.host.token), a.host.workspace),
        connectMcp(ipcEnv(b.location.stablePath, b.host.token), b.host.workspace),
      ]);
      mcps.push(mcpA, mcpB);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => [
          call(mcpA, 'present-review', { content: `## A${i}\n\nfrom window A`, mode: 'append' }),
          call(mcpB, 'present-review', { content: `## B${i}\n\nfrom window B`, mode: 'append' }),
        ]).flat(),
      );
      expect(results.filter((r) => r.isError)).toEqual([]);
      const titles = (host: Host) => host.store.current!.sections.map((s) => s.title);
      expect(titles(a.host)).toEqual(Array.from({ length: 10 }, (_, i) => `A${i}`));
      expect(titles(b.host)).toEqual(Array.from({ length: 10 }, (_, i) => `B${i}`));
      expect(a.host.store.current!.markdown).not.toMatch(/window B/);
      expect(b.host.store.current!.markdown).not.toMatch(/window A/);
      expect(((await call(mcpA, 'get-review')).structuredContent as { markdown: string }).markdown).toBe(a.host.store.current!.markdown);
      expect(((await call(mcpB, 'get-review')).structuredContent as { markdown: string }).markdown).toBe(b.host.store.current!.markdown);

      // Window A's socket with window B's token: refused, and neither window changes.
      const crossed = await connectMcp(ipcEnv(a.location.stablePath, b.host.token));
      mcps.push(crossed);
      const refused = await call(crossed, 'present-review', { content: '# wrong window' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toMatch(/could not prove that it holds the token/);
      expect(a.host.store.revision).toBe(10);
      expect(b.host.store.revision).toBe(10);
      // The refused connection is gone once its close has gone through; each window keeps its own client.
      await waitUntil(() => a.host.server.connectionCount === 1);
      expect(b.host.server.connectionCount).toBe(1);
    } finally {
      await Promise.all(mcps.map((mcp) => mcp.close()));
      await a.stop();
      await b.stop();
    }
  });
});
