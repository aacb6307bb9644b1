// In-process test kit for the IPC bridge alone: the real IpcServer with handlers the test
// controls, the real IpcClient, raw peers that speak the handshake, and a fake listener that
// records everything a client sends to it.

import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { silentLogger } from '../../shared/logger';
import {
  ErrorCode,
  IpcError as IpcErrorClass,
  type IpcError,
  type GetSelectionResult,
  type PresentReviewResult,
} from '../../shared/protocol';
import { Logger, type LogLevel } from '../../shared/logger';
import { IpcServer, type IpcLimits } from '../../extension/src/ipc/ipcServer';
import type { RequestHandlers, RequestObserver } from '../../extension/src/ipc/requestContract';
import { createToken } from '../../extension/src/ipc/token';
import { IpcClient, type IpcClientOptions } from '../../mcp-server/src/ipcClient';

export const presented = (content: string): PresentReviewResult => ({
  revision: 1,
  sections: [],
  sectionCount: 0,
  references: { total: 0, resolved: 0, broken: [] },
  title: `${Buffer.byteLength(content)} bytes`,
  findings: [],
});

const noSelection: GetSelectionResult = { editor: null };

export const simpleHandlers: RequestHandlers = {
  'present-review': (params) => presented(params.content),
  'get-selection': () => noSelection,
  'open-location': () => ({ path: '/x', start: { line: 1, column: 1 }, end: { line: 1, column: 1 } }),
  'get-review': () => ({ revision: 0, markdown: '', sections: [], findings: [] }),
  'get-review-feedback': () => ({ cursor: '0', items: [] }),
  'get-diagnostics': () => ({ diagnostics: [], total: 0, truncated: false }),
  'list-open-editors': () => ({ editors: [], truncated: false, outsideWorkspace: 0 }),
  'get-workspace-folders': () => ({ folders: [] }),
  'list-review-history': () => ({ entries: [] }),
  'get-earlier-review': (params) => {
    throw new IpcErrorClass(ErrorCode.NotFound, `No earlier review with revision ${params.revision}`);
  },
  'list-git-refs': () => ({ refs: [], truncated: false }),
  'find-workspace-files': () => ({ files: [], truncated: false }),
  'export-review': (params) => ({ revision: 0, format: params.format, text: '', findings: 0 }),
  'import-review': (params) => ({
    revision: 1,
    references: { total: 0, resolved: 0, broken: [] },
    findings: 0,
    unmatched: params.findings.length,
    restored: { states: 0, replies: 0 },
  }),
  'get-review-view': () => ({
    revision: 0,
    counts: { blocking: 0, bug: 0, risk: 0, suggestion: 0, nit: 0, question: 0, praise: 0, none: 0 },
    findings: [],
  }),
  'answer-finding': (params) => ({ findingId: params.findingId, state: params.state ?? 'open', items: [] }),
  'reveal-review': () => ({ shown: false }),
};

export interface LogLine {
  readonly event: string;
  readonly level: LogLevel;
  readonly fields?: Record<string, unknown>;
}

export interface Bridge {
  readonly server: IpcServer;
  readonly socketPath: string;
  readonly token: string;
  readonly logs: LogLine[];
  client(options?: Partial<IpcClientOptions>): IpcClient;
  stop(): Promise<void>;
}

export function tempSocketPath(): { dir: string; socketPath: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-ipc-'));
  return { dir, socketPath: path.join(dir, 's.sock') };
}

export async function startBridge(
  options: {
    handlers?: Partial<RequestHandlers>;
    limits?: Partial<IpcLimits>;
    maxLineBytes?: number;
    observer?: RequestObserver;
  } = {},
): Promise<Bridge> {
  const { dir, socketPath } = tempSocketPath();
  const token = createToken();
  const logs: LogLine[] = [];
  const clients: IpcClient[] = [];
  const server = await IpcServer.start({
    socketPath,
    token,
    handlers: { ...simpleHandlers, ...options.handlers } as RequestHandlers,
    serverInfo: { name: 'redline', version: 'test', pid: process.pid },
    limits: options.limits,
    maxLineBytes: options.maxLineBytes,
    observer: options.observer,
    log: new Logger({ write: ({ level, message, fields }) => logs.push({ event: message, level, fields }) }, 'ipc'),
  });
  return {
    server,
    socketPath,
    token,
    logs,
    client(overrides = {}) {
      const client = new IpcClient({
        socketPath,
        token,
        clientInfo: { name: 'test', version: '1' },
        retryDelaysMs: [],
        log: silentLogger,
        ...overrides,
      });
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) await client.dispose();
      await server.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whatever listens at a path without knowing the token: records every byte each client sends. */
export class FakeListener {
  readonly received: Buffer[] = [];
  readonly connections: net.Socket[] = [];
  private constructor(private readonly server: net.Server) {}

  /** `answer` is called with each complete line a client sends and may write back. */
  static async start(
    socketPath: string,
    answer: (line: string, socket: net.Socket) => void = () => undefined,
  ): Promise<FakeListener> {
    const server = net.createServer();
    const fake = new FakeListener(server);
    server.on('connection', (socket) => {
      fake.connections.push(socket);
      let text = '';
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        fake.received.push(chunk);
        text += chunk.toString('utf8');
        const lines = text.split('\n');
        text = lines.pop()!;
        for (const line of lines) answer(line, socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return fake;
  }

  get bytes(): string {
    return Buffer.concat(this.received).toString('utf8');
  }

  get lines(): unknown[] {
    return this.bytes
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  }

  async stop(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The error a call failed with; fails the test if it succeeded. */
export async function failure(promise: Promise<unknown>): Promise<IpcError> {
  try {
    await promise;
  } catch (error) {
    return error as IpcError;
  }
  throw new Error('expected the call to fail');
}
