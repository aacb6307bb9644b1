// Seeing the connection, over a real socket: the id the MCP server logs for a request is the id
// the window's Activity log shows for it, with the assistant's name, the outcome and the duration;
// and the window counts the MCP servers that proved they hold its token, as they come and go.

import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { ActivityLog } from '../../extension/src/activity/activityLog';
import type { RequestHandlers } from '../../extension/src/ipc/requestContract';
import { createToken } from '../../extension/src/ipc/token';
import { ClientName } from '../../mcp-server/src/clientName';
import { createServer } from '../../mcp-server/src/server';
import { Logger, silentLogger } from '../../shared/logger';
import { ErrorCode, IpcError } from '../../shared/protocol';
import { assertBuilt, connectMcp } from './harness';
import { until } from '../support/until';
import { failure, startBridge } from './ipcKit';
import { RawPeer } from './rawPeer';

interface Logged {
  readonly event: string;
  readonly fields: Record<string, unknown>;
}

/** A window's IPC server whose requests an ActivityLog observes, as the extension wires it. */
async function startWindow(handlers: Partial<RequestHandlers> = {}) {
  const activity = new ActivityLog();
  const bridge = await startBridge({ handlers, observer: activity });
  const counts: number[] = [];
  bridge.server.onDidChangeAuthenticatedCount((count) => counts.push(count));
  return {
    ...bridge,
    activity,
    counts,
    /** An MCP server's bridge, whose log lines land in `logged`. */
    client: (logged: Logged[] = []) =>
      bridge.client({
        clientInfo: { name: 'redline-mcp', version: 'test' },
        log: new Logger(
          { write: ({ message, fields = {} }) => void logged.push({ event: message, fields }) },
          'bridge',
        ),
      }),
  };
}

type Window = Awaited<ReturnType<typeof startWindow>>;

describe("the correlation id, from the MCP server's log to the Activity view", () => {
  let window: Window;
  afterEach(async () => window?.stop());

  it("a call that succeeds: one id, the assistant's name, ok, and a duration on both sides", async () => {
    window = await startWindow();
    const logged: Logged[] = [];
    const client = window.client(logged);
    await client.request('get-review', {}, { client: 'Claude Code' });

    const sent = logged.find((l) => l.event === 'request')!;
    const replied = logged.find((l) => l.event === 'reply')!;
    expect(sent.fields).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'get-review',
      client: 'Claude Code',
    });
    expect(replied.fields).toEqual({
      id: sent.fields.id,
      method: 'get-review',
      status: 'ok',
      durationMs: expect.any(Number),
    });

    await until(() => window.activity.entries()[0]?.status === 'ok', 'the call to settle in the activity');
    const [entry] = window.activity.entries();
    expect(entry).toMatchObject({ id: sent.fields.id, method: 'get-review', client: 'Claude Code', status: 'ok' });
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    // The window's time is part of the MCP server's, which also spans the socket both ways.
    expect(entry.durationMs!).toBeLessThanOrEqual((replied.fields.durationMs as number) + 1);
  });

  it('a call that fails: the same id, the error and its code on both sides', async () => {
    window = await startWindow({
      'open-location': () => {
        throw new IpcError(ErrorCode.NotFound, 'Cannot open src/gone.ts:3: no such file');
      },
    });
    const logged: Logged[] = [];
    const client = window.client(logged);
    const error = await failure(client.request('open-location', { reference: 'src/gone.ts:3' }, { client: 'Codex' }));
    expect(error.code).toBe(ErrorCode.NotFound);

    const replied = logged.find((l) => l.event === 'reply')!;
    expect(replied.fields).toMatchObject({
      method: 'open-location',
      status: 'error',
      code: ErrorCode.NotFound,
      error: 'Cannot open src/gone.ts:3: no such file',
    });
    const [entry] = window.activity.entries();
    expect(entry).toMatchObject({
      id: replied.fields.id,
      client: 'Codex',
      status: 'error',
      error: { code: ErrorCode.NotFound, message: 'Cannot open src/gone.ts:3: no such file' },
    });
  });

  it('a call the assistant cancels: cancelled on both sides, under the same id', async () => {
    const hung = new Promise<never>(() => undefined);
    window = await startWindow({ 'get-selection': () => hung });
    const logged: Logged[] = [];
    const client = window.client(logged);
    const controller = new AbortController();
    const call = failure(client.request('get-selection', {}, { signal: controller.signal, client: 'Gemini CLI' }));
    await until(() => window.activity.entries()[0]?.status === 'running', 'the call to be running in the activity');
    const running = window.activity.entries()[0];
    expect(running).toMatchObject({ method: 'get-selection', client: 'Gemini CLI' });
    controller.abort();
    expect((await call).code).toBe(ErrorCode.Cancelled);

    await until(() => window.activity.entries()[0]?.status === 'cancelled', 'the call to be cancelled in the activity');
    const replied = logged.find((l) => l.event === 'reply')!;
    expect(replied.fields).toMatchObject({ id: running.id, status: 'cancelled', code: ErrorCode.Cancelled });
  });

  it('a request from an MCP server that does not name its assistant is shown without one', async () => {
    window = await startWindow();
    const client = window.client();
    await client.request('get-review', {});
    expect(window.activity.entries()[0]).toMatchObject({ method: 'get-review', client: undefined, status: 'ok' });
  });

  it('the tools name the MCP client that called them (clientInfo), for every tool', async () => {
    window = await startWindow();
    const logged: Logged[] = [];
    const clientName = new ClientName();
    const server = createServer({
      bridge: window.client(logged),
      cwd: '/',
      clientName: () => clientName.get(),
      log: silentLogger,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    // What the stdio transport does for the real server: the name is read off the wire.
    const deliver = serverSide.onmessage!;
    serverSide.onmessage = (message, extra) => {
      clientName.observe(message);
      deliver(message, extra);
    };
    const mcp = new Client({ name: 'Cursor', version: '1.0.0' });
    await mcp.connect(clientSide);
    try {
      for (const [name, args] of [
        ['present-review', { content: '# x' }],
        ['get-selection', {}],
        ['open-location', { reference: 'a.ts:1' }],
        ['get-review', {}],
        ['get-review-feedback', {}],
        ['await-review-feedback', { since: '0', timeoutSeconds: 1 }],
      ] as const) {
        const result = await mcp.callTool({ name, arguments: args });
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await mcp.close();
      await server.close();
    }
    const entries = window.activity.entries();
    expect(new Set(entries.map((e) => e.method))).toEqual(
      new Set(['present-review', 'get-selection', 'open-location', 'get-review', 'get-review-feedback']),
    );
    expect(entries.every((e) => e.client === 'Cursor' && e.status === 'ok')).toBe(true);
    // One "request" line per call the window saw, under the same ids.
    const sentIds = logged.filter((l) => l.event === 'request').map((l) => l.fields.id);
    expect(sentIds.sort()).toEqual(entries.map((e) => e.id).sort());
  });
});

describe('the count of connected assistants', () => {
  let window: Window;
  afterEach(async () => window?.stop());

  it('counts MCP servers once they prove the token, and follows them as they leave', async () => {
    window = await startWindow();
    expect(window.server.authenticatedCount).toBe(0);
    const first = window.client();
    await first.request('get-review', {});
    expect(window.server.authenticatedCount).toBe(1);
    const second = window.client();
    await second.request('get-review', {});
    expect(window.counts).toEqual([1, 2]);

    // A peer that has not authenticated, and one that fails to, are not counted.
    const idle = await RawPeer.connect(window.socketPath);
    const wrong = await RawPeer.connect(window.socketPath);
    await wrong.hello(createToken());
    await wrong.whenClosed();
    // The window may see the close a moment after the peer does.
    await until(() => window.server.connectionCount === 3, 'the window to see the refused peer close');
    expect(window.server.authenticatedCount).toBe(2);
    idle.destroy();

    await first.dispose();
    await until(() => window.counts.length === 3, 'the count after the first client left');
    await second.dispose();
    await until(() => window.counts.length === 4, 'the count after the second client left');
    expect(window.counts).toEqual([1, 2, 1, 0]);
    expect(window.server.authenticatedCount).toBe(0);
  });
});

describe('the built MCP server', () => {
  let window: Window;
  let mcp: Awaited<ReturnType<typeof connectMcp>> | undefined;
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await mcp?.close();
    await window?.stop();
  });

  it('with --log debug, writes the id the window shows for a call to its stderr, with the method and then the outcome', async () => {
    window = await startWindow();
    mcp = await connectMcp(
      { REDLINE_IPC_PATH: window.socketPath, REDLINE_IPC_TOKEN: window.token, REDLINE_LOG: undefined },
      undefined,
      'Claude Code',
      ['--log', 'debug'],
    );
    const result = await mcp.client.callTool({ name: 'get-review', arguments: {} });
    expect(result.isError).toBeFalsy();
    await until(() => /"event":"reply"/.test(mcp!.stderr()), "the reply line on the MCP server's stderr");

    const lines = mcp
      .stderr()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const sent = lines.find((l) => l.event === 'request');
    const replied = lines.find((l) => l.event === 'reply');
    expect(sent).toMatchObject({
      source: 'redline-mcp',
      level: 'debug',
      component: 'bridge',
      method: 'get-review',
      client: 'Claude Code',
    });
    expect(replied).toMatchObject({
      source: 'redline-mcp',
      level: 'debug',
      id: sent.id,
      method: 'get-review',
      status: 'ok',
      durationMs: expect.any(Number),
    });
    expect(window.activity.entries()).toEqual([
      expect.objectContaining({ id: sent.id, method: 'get-review', client: 'Claude Code', status: 'ok' }),
    ]);
    expect(window.counts).toEqual([1]);
  });
});
