// Faults: the extension host SIGKILLed mid-request and started again, the MCP server SIGKILLed
// mid-request, the files a dead host leaves, and two windows side by side. Hosts use the real
// private directory and discovery files (windowHost.ts); MCP servers are the built dist/mcp-server.js.

import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as fs from 'fs';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { createToken } from '../../extension/src/ipc/token';
import { assertBuilt, connectMcp, startHost, type Host } from '../integration/harness';
import { publishWindow } from './windowDiscovery';
import {
  forkWindowHost,
  removeHostBundle,
  startWindowHost,
  useRuntimeDir,
  type ChildHost,
  type WindowHost,
} from './windowHost';
import { RawPeer } from '../integration/rawPeer';
import { discoveryEnv, NO_DISCOVERY_ENV } from '../support/discoveryEnv';
import { until } from '../support/until';

type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
};
type Mcp = Awaited<ReturnType<typeof connectMcp>>;

// Latencies are printed, not asserted: absolute times belong to `npm run bench`. What is asserted
// is which event ended each call: the close of the socket, long before any timeout could fire.

/** A terminal's variables; the runtime dir is where discovery looks, as it would be in the user's session. */
function ipcEnv(socketPath: string, token: string): Record<string, string> {
  return { REDLINE_IPC_PATH: socketPath, REDLINE_IPC_TOKEN: token, ...discoveryEnv() };
}

/** A project folder: what a window has open, and where its assistant runs. */
function projectFolder(runtimeDir: string, name = 'project'): string {
  const folder = path.join(runtimeDir, name);
  fs.mkdirSync(path.join(folder, 'src'), { recursive: true });
  return folder;
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
    const project = projectFolder(runtime.dir);
    const child = await forkWindowHost(runtime.dir, token, project);
    children.push(child);
    const mcp = await connectMcp(ipcEnv(child.socketPath, token), path.join(project, 'src'));
    mcps.push(mcp);
    expect((await call(mcp, 'get-review')).isError).toBeFalsy();
    // Timestamped where it settles, not where the test next looks at it.
    const pending = call(mcp, 'get-selection').then((result) => ({ result, at: performance.now() }));
    await child.selectionRequested;
    return { child, mcp, pending, project };
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

  it("serves the next call once the window's host is started again, found through discovery", async () => {
    const { child, mcp, pending, project } = await hostWithPendingCall(createToken());
    child.process.kill('SIGKILL');
    expect((await pending).result.isError).toBe(true);
    await child.exited;
    // The kill left the old host's socket and discovery file behind.
    expect(fs.existsSync(child.socketPath)).toBe(true);
    expect(fs.existsSync(child.discoveryFile)).toBe(true);

    // The new host of the same window (a reload): a socket and a token of its own.
    const window = await startWindowHost({ folder: project });
    windows.push(window);
    expect(fs.existsSync(child.socketPath)).toBe(false);
    expect(fs.existsSync(child.discoveryFile)).toBe(false);
    const started = performance.now();
    const result = await call(mcp, 'present-review', { content: '# After the crash' });
    const elapsed = performance.now() - started;
    process.stdout.write(`first call after the host restarted: ${elapsed.toFixed(1)} ms\n`);
    expect(result.isError).toBeFalsy();
    expect(window.host.store.current?.markdown).toBe('# After the crash');
  });

  it('a call made while no host listens succeeds once the new host listens (the client retries)', async () => {
    const { child, mcp, pending, project } = await hostWithPendingCall(createToken());
    child.process.kill('SIGKILL');
    await pending;
    await child.exited;
    // Issued during the gap of a reload: the MCP server retries with a short backoff.
    const result = call(mcp, 'present-review', { content: '# Made during the reload' }).then((r) => ({
      r,
      at: performance.now(),
    }));
    // The MCP server logs the request before it looks for a window to send it to.
    await until(
      () => /"event":"request","id":"[^"]+","method":"present-review"/.test(mcp.stderr()),
      'the MCP server to take the call up',
    );
    const window = await startWindowHost({ folder: project });
    windows.push(window);
    const listeningAt = performance.now();
    const { r, at } = await result;
    process.stdout.write(
      `call made during the reload gap: answered ${(at - listeningAt).toFixed(1)} ms after the host listened\n`,
    );
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
    const bystander = await RawPeer.connect(host.socketPath);
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
      const mcp = await connectMcp(
        { REDLINE_IPC_PATH: host.socketPath, REDLINE_IPC_TOKEN: host.token },
        host.workspace,
      );
      try {
        const pid = (mcp.client.transport as StdioClientTransport).pid!;
        void mcp.client.callTool({ name: 'get-selection', arguments: {} }).catch(() => undefined);
        await until(() => inFlight === round, `get-selection ${round} to reach the window`);
        expect(host.server.connectionCount).toBe(baseline + 1);
        process.kill(pid, 'SIGKILL');
        const killedAt = performance.now();
        await until(
          () => host.server.connectionCount === baseline,
          "the window to free the killed server's connection",
        );
        freedIn.push(performance.now() - killedAt);
      } finally {
        await mcp.close().catch(() => undefined);
      }
    }
    process.stdout.write(
      `MCP server SIGKILL -> connection freed: ${freedIn.map((ms) => ms.toFixed(1)).join(', ')} ms\n`,
    );
    expect(host.server.connectionCount).toBe(baseline);
    bystander.send({ type: 'request', id: 'still-there', method: 'get-review', params: {} });
    expect(await bystander.waitFor((r) => (r as { id?: string }).id === 'still-there')).toMatchObject({
      result: { revision: 0 },
    });
    bystander.destroy();
  });
});

describe('the files of a dead host', () => {
  let runtime: ReturnType<typeof useRuntimeDir>;
  beforeEach(() => {
    assertBuilt();
    runtime = useRuntimeDir();
  });
  afterEach(() => runtime.restore());

  it('are ignored by discovery, and swept when a new host starts', async () => {
    const project = projectFolder(runtime.dir);
    const dead = await forkWindowHost(runtime.dir, createToken(), project);
    dead.process.kill('SIGKILL');
    await dead.exited;
    expect(fs.statSync(dead.socketPath).isSocket()).toBe(true);
    expect(fs.statSync(dead.discoveryFile).isFile()).toBe(true);

    // Only the dead host's file is there: an MCP server with no variables says no window is open, and removes it.
    const lonely = await connectMcp(discoveryEnv(), project);
    try {
      const refused = await call(lonely, 'get-review');
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toMatch(/No VS Code window with Redline is open/);
      expect(fs.existsSync(dead.discoveryFile)).toBe(false);
    } finally {
      await lonely.close();
    }

    const window = await startWindowHost({ folder: project });
    try {
      expect(fs.existsSync(dead.socketPath)).toBe(false);
      expect(fs.statSync(window.location.path).mode & 0o777).toBe(0o600);
      expect(fs.statSync(window.discoveryFile).mode & 0o777).toBe(0o600);
      const mcp = await connectMcp(discoveryEnv(), project);
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
    const [a, b] = [await startWindowHost(), await startWindowHost()];
    const mcps: Mcp[] = [];
    try {
      expect(a.location.directory).toBe(b.location.directory);
      expect(a.location.path).not.toBe(b.location.path);
      expect(a.host.token).not.toBe(b.host.token);
      expect(a.host.store).not.toBe(b.host.store);
      const [mcpA, mcpB] = await Promise.all([
        connectMcp(ipcEnv(a.location.path, a.host.token), a.host.workspace),
        connectMcp(ipcEnv(b.location.path, b.host.token), b.host.workspace),
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
      expect(((await call(mcpA, 'get-review')).structuredContent as { markdown: string }).markdown).toBe(
        a.host.store.current!.markdown,
      );
      expect(((await call(mcpB, 'get-review')).structuredContent as { markdown: string }).markdown).toBe(
        b.host.store.current!.markdown,
      );

      // Window A's socket with window B's token: refused, and neither window changes.
      const crossed = await connectMcp({ REDLINE_IPC_PATH: a.location.path, REDLINE_IPC_TOKEN: b.host.token });
      mcps.push(crossed);
      const refused = await call(crossed, 'present-review', { content: '# wrong window' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toMatch(/could not prove that it holds the token/);
      expect(a.host.store.revision).toBe(10);
      expect(b.host.store.revision).toBe(10);
      // The refused connection is gone once its close has gone through; each window keeps its own client.
      await until(() => a.host.server.connectionCount === 1, 'window A to close the refused connection');
      expect(b.host.server.connectionCount).toBe(1);
    } finally {
      await Promise.all(mcps.map((mcp) => mcp.close()));
      await a.stop();
      await b.stop();
    }
  });
  it("a server started in a window's terminal reaches that window's newest host, not one left over from before its reload", async () => {
    const project = projectFolder(runtime.dir);
    // The jest worker stands in for the terminal's shell: the MCP server is its child.
    const lingering = await startWindowHost({ folder: project, terminals: [process.pid] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const reloaded = await startWindowHost({ folder: project, terminals: [process.pid], lastFocused: 0 });
    const mcp = await connectMcp(ipcEnv(lingering.location.path, lingering.host.token), runtime.dir);
    try {
      expect((await call(mcp, 'present-review', { content: '# to the reloaded window' })).isError).toBeFalsy();
      expect(reloaded.host.store.current?.markdown).toBe('# to the reloaded window');
      expect(lingering.host.store.revision).toBe(0);
      // Logged before the call was sent; stderr reaches this process on a pipe of its own.
      await until(
        () => mcp.stderr().includes('"via":"the Test Editor window of this terminal"'),
        "the MCP server's log of the window it reached",
      );
    } finally {
      await mcp.close();
      await lingering.stop();
      await reloaded.stop();
    }
  });

  it('an MCP server with no variables reaches the window of its folder, and one outside both is told the folders', async () => {
    const [folderA, folderB] = [projectFolder(runtime.dir, 'app'), projectFolder(runtime.dir, 'app-two')];
    const [a, b] = [await startWindowHost({ folder: folderA }), await startWindowHost({ folder: folderB })];
    const mcps: Mcp[] = [];
    try {
      const [mcpA, mcpB, lost] = await Promise.all([
        connectMcp(discoveryEnv(), path.join(folderA, 'src')),
        connectMcp(discoveryEnv(), path.join(folderB, 'src')),
        connectMcp(discoveryEnv(), runtime.dir),
      ]);
      mcps.push(mcpA, mcpB, lost);
      expect((await call(mcpA, 'present-review', { content: '# for A' })).isError).toBeFalsy();
      expect((await call(mcpB, 'present-review', { content: '# for B' })).isError).toBeFalsy();
      expect(a.host.store.current?.markdown).toBe('# for A');
      expect(b.host.store.current?.markdown).toBe('# for B');
      const refused = await call(lost, 'present-review', { content: '# for nobody' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toContain(
        `No VS Code window has a workspace folder that contains ${runtime.dir}`,
      );
      expect(refused.content[0].text).toContain(`  ${folderA} (Test Editor)`);
      expect(refused.content[0].text).toContain(`  ${folderB} (Test Editor)`);
      expect(a.host.store.revision).toBe(1);
      expect(b.host.store.revision).toBe(1);
      // Named on the command line's stand-in, REDLINE_WORKSPACE, the same server reaches B.
      const chosen = await connectMcp({ ...discoveryEnv(), REDLINE_WORKSPACE: folderB }, runtime.dir);
      mcps.push(chosen);
      expect((await call(chosen, 'present-review', { content: '# chosen B', mode: 'append' })).isError).toBeFalsy();
      expect(b.host.store.revision).toBe(2);
    } finally {
      await Promise.all(mcps.map((mcp) => mcp.close()));
      await a.stop();
      await b.stop();
    }
  });
});

describe('a rotated token', () => {
  let runtime: ReturnType<typeof useRuntimeDir>;
  beforeEach(() => {
    assertBuilt();
    runtime = useRuntimeDir();
  });
  afterEach(() => runtime.restore());

  it('closes every connection once its running calls are answered; a server that can read discovery reconnects, the old token alone is refused', async () => {
    const window = await startWindowHost();
    const oldToken = window.host.token;
    const mcp = await connectMcp(ipcEnv(window.location.path, oldToken));
    // Same variables, but it cannot see the discovery files: all it has is the old token.
    const blind = await connectMcp({
      REDLINE_IPC_PATH: window.location.path,
      REDLINE_IPC_TOKEN: oldToken,
      ...NO_DISCOVERY_ENV,
    });
    try {
      expect((await call(mcp, 'present-review', { content: '# before' })).isError).toBeFalsy();
      expect((await call(blind, 'get-review')).isError).toBeFalsy();
      expect(window.host.server.connectionCount).toBe(2);

      // A call in flight when the token changes is answered before its connection closes.
      let release!: () => void;
      let entered!: () => void;
      const running = new Promise<void>((resolve) => (entered = resolve));
      window.host.editor.hang = new Promise<void>((resolve) => (release = resolve)).then(() => undefined);
      const getSelection = window.host.editor.getSelection.bind(window.host.editor);
      window.host.editor.getSelection = () => (entered(), getSelection());
      const inFlight = call(mcp, 'get-selection');
      await running;

      // What BridgeHost.rotateToken does: the discovery file first, then the server.
      const newToken = createToken();
      publishWindow(window.location, newToken, [window.host.workspace]);
      window.host.server.rotateToken(newToken);
      // The idle connection goes at once; the busy one waits for its reply.
      await until(() => window.host.server.connectionCount === 1, 'the window to close the idle connection');
      release();
      expect((await inFlight).isError).toBeFalsy();
      await until(() => window.host.server.connectionCount === 0, 'the busy connection to close after its reply');
      window.host.editor.hang = undefined;

      expect((await call(mcp, 'present-review', { content: '# after', mode: 'append' })).isError).toBeFalsy();
      expect(window.host.store.revision).toBe(2);
      const refused = await call(blind, 'get-review');
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toMatch(/could not prove that it holds the token/);
    } finally {
      await mcp.close();
      await blind.close();
      await window.stop();
    }
  });
});
