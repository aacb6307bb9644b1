// Shared set-up for the integration tests: the extension's real IpcServer and ReviewStore on a
// real socket, a stand-in for the editor side, and the real built MCP server over stdio.

import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { z } from 'zod';
import {
  ErrorCode,
  IpcError,
  type GetDiagnosticsParams,
  type GetDiagnosticsResult,
  type GetSelectionResult,
  type FindWorkspaceFilesResult,
  type GetWorkspaceFoldersResult,
  type GitRef,
  type ListGitRefsResult,
  type ListOpenEditorsResult,
  type OpenLocationResult,
  type ResultOf,
} from '../../shared/protocol';
import type { WINDOW_HINT } from '../../mcp-server/src/tools/resultHints';
import type { AwaitReviewFeedbackResult } from '../../mcp-server/src/tools/reviewFeedbackTools';
import type { NEXT_STEPS } from '../../mcp-server/src/tools/toolResult';
import { broadcastReviewEvents } from '../../extension/src/bridge/reviewEvents';
import { completeFilePath } from '../../extension/src/editor/fileCompletion';
import { createRequestHandlers, type EditorSide } from '../../extension/src/bridge/requestHandlers';
import type { RequestObserver } from '../../extension/src/ipc/requestContract';
import { IpcServer, type IpcLimits } from '../../extension/src/ipc/ipcServer';
import { createToken } from '../../extension/src/ipc/token';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { RenderWorkerPool } from '../../extension/src/render/renderWorkerPool';
import type { ReviewStore } from '../../extension/src/review/reviewStore';
import type { Conversation } from '../../extension/src/review/conversation';
import { AssistantReviews } from '../../extension/src/review/assistantReviews';
import { silentLogger } from '../../shared/logger';
import type { ReviewFindings } from '../../extension/src/review/reviewFindings';
import { findingsAttacher } from '../support/findingsAttacher';
import { discoveryEnv, NO_DISCOVERY_DEFAULT } from '../support/discoveryEnv';
import { stderrLogger } from '../support/loggedLines';

/** The built server; the benchmark, bundled elsewhere, names it through the environment. */
export const MCP_SERVER = process.env.REDLINE_MCP_SERVER ?? path.resolve(__dirname, '../../dist/mcp-server.js');

/** The built render worker: the host renders in it, as the window does. (The benchmark names it too.) */
export const RENDER_WORKER = process.env.REDLINE_RENDER_WORKER ?? path.resolve(__dirname, '../../dist/renderWorker.js');

export function assertBuilt(): void {
  for (const file of [MCP_SERVER, RENDER_WORKER]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first.`);
  }
}

/** What get-selection answers for src/example.ts of `workspace` with one selection of `text`. */
export function exampleSelection(
  workspace: string,
  selection: { start: { line: number; column: number }; end: { line: number; column: number }; text: string },
  isDirty = false,
): GetSelectionResult {
  return {
    editor: {
      path: path.join(workspace, 'src/example.ts'),
      relativePath: 'src/example.ts',
      workspaceFolder: workspace,
      languageId: 'typescript',
      isDirty,
      isUntitled: false,
      lineCount: 60,
      selections: [{ ...selection, isEmpty: false }],
    },
  };
}

/** A stand-in for the VS Code side: answers like the real one, records what it was asked. */
export class FakeEditor implements EditorSide {
  selection: GetSelectionResult = { editor: null };
  readonly opened: Array<{ reference: string; cwd: string | undefined }> = [];
  /** When set, getSelection waits for this promise (to test timeouts and disconnects). */
  hang: Promise<unknown> | undefined;
  /** How many times get-selection reached the editor: a test waits for a call to be in flight. */
  selectionsAsked = 0;

  async getSelection(): Promise<GetSelectionResult> {
    this.selectionsAsked++;
    if (this.hang) await this.hang;
    return this.selection;
  }

  /** What get-diagnostics, list-open-editors and get-workspace-folders answer. */
  diagnostics: GetDiagnosticsResult = { diagnostics: [], total: 0, truncated: false };
  editors: ListOpenEditorsResult = { editors: [], truncated: false, outsideWorkspace: 0 };
  folders: GetWorkspaceFoldersResult = { folders: [] };
  readonly diagnosticsAsked: GetDiagnosticsParams[] = [];

  getDiagnostics(params: GetDiagnosticsParams): GetDiagnosticsResult {
    this.diagnosticsAsked.push(params);
    return this.diagnostics;
  }

  listOpenEditors(): ListOpenEditorsResult {
    return this.editors;
  }

  getWorkspaceFolders(): GetWorkspaceFoldersResult {
    return this.folders;
  }

  /** What list-git-refs and find-workspace-files complete from. */
  refs: GitRef[] = [{ name: 'HEAD', kind: 'head' }];
  files: string[] = [];

  listGitRefs(prefix: string): ListGitRefsResult {
    return { refs: this.refs.filter((ref) => ref.name.startsWith(prefix)), truncated: false };
  }

  findWorkspaceFiles(prefix: string): FindWorkspaceFilesResult {
    return completeFilePath(this.files, prefix);
  }

  async openLocation(reference: string, cwd: string | undefined): Promise<OpenLocationResult> {
    this.opened.push({ reference, cwd });
    if (reference.includes('missing')) throw new IpcError(ErrorCode.NotFound, `Cannot open ${reference}: no such file`);
    if (reference.includes('outside')) throw new IpcError(ErrorCode.Refused, `The user declined to open ${reference}`);
    return {
      path: path.join(cwd ?? '/', 'src/example.ts'),
      start: { line: 42, column: 1 },
      end: { line: 42, column: 20 },
    };
  }
}

export interface Host {
  readonly server: IpcServer;
  /** Every assistant's review. */
  readonly reviews: AssistantReviews;
  /** The first assistant's review, its conversation and its findings. */
  readonly store: ReviewStore;
  readonly conversation: Conversation;
  readonly findings: ReviewFindings;
  readonly editor: FakeEditor;
  readonly socketPath: string;
  readonly token: string;
  readonly workspace: string;
  restart(): Promise<IpcServer>;
  stop(): Promise<void>;
}

/**
 * A temp workspace with src/example.ts (60 lines), and a host serving it (on `socketPath` and with
 * `token` when given). The store is in memory unless `durable`, which keeps it in files as VS Code does.
 */
export async function startHost(
  options: {
    maxLineBytes?: number;
    socketPath?: string;
    token?: string;
    limits?: Partial<IpcLimits>;
    durable?: boolean;
    /** Told of every request, as the window's Activity view is. */
    observer?: RequestObserver;
    /** The redline.historySize setting; 5 unless a test needs more. */
    historySize?: number;
    /** The window's workspace folder, as it is; a temp one with src/example.ts (60 lines) by default. */
    workspace?: string;
  } = {},
): Promise<Host> {
  if (!fs.existsSync(RENDER_WORKER)) throw new Error(`${RENDER_WORKER} is missing: run "npm run build" first.`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-'));
  const workspace = options.workspace ?? path.join(root, 'ws');
  if (!options.workspace) {
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    const lines = Array.from({ length: 60 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
    fs.writeFileSync(path.join(workspace, 'src/example.ts'), lines.join('\n') + '\n');
  }
  const socketPath = options.socketPath ?? path.join(root, 's.sock');
  const token = options.token ?? createToken();
  // As the window does: renders run in the worker pool, off this thread.
  const renderer = new ReviewRenderer(() => [workspace], { engine: new RenderWorkerPool(RENDER_WORKER) });
  // As the window does: one review per assistant, in files when `durable`.
  const reviews = await AssistantReviews.open({
    root: options.durable ? path.join(root, 'storage') : undefined,
    historySize: options.historySize ?? 5,
    log: silentLogger,
    renderer,
    attachFindings: findingsAttacher(renderer, stderrLogger('findings')),
  });
  const editor = new FakeEditor();
  const handlers = createRequestHandlers(reviews, renderer, editor);
  const start = () =>
    IpcServer.start({
      socketPath,
      token,
      handlers,
      maxLineBytes: options.maxLineBytes,
      limits: options.limits,
      observer: options.observer,
      serverInfo: { name: 'redline', version: 'test', pid: process.pid },
    });
  let server = await start();
  // As the window does: every connected MCP server hears of changed reviews, feedback and history.
  broadcastReviewEvents(reviews, (event, payload) => server.broadcast(event, payload));
  return {
    get server() {
      return server;
    },
    reviews,
    // The first assistant's review: the one a single test client presents to.
    get store() {
      return reviews.primary.store;
    },
    get conversation() {
      return reviews.primary.conversation;
    },
    get findings() {
      return reviews.primary.findings;
    },
    editor,
    socketPath,
    token,
    workspace,
    async restart() {
      await server.dispose();
      server = await start();
      return server;
    },
    async stop() {
      await server.dispose();
      await Promise.all(reviews.all.map((review) => review.conversation.flushed()));
      await reviews.dispose();
      await renderer.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * How the client picks the protocol revision: 'auto' probes server/discover first, as Claude Code
 * and the SDKs' own clients do, and so speaks 2026-07-28 with Redline; 'legacy' opens with
 * `initialize`, as Codex and Gemini CLI do; 'modern' is pinned to 2026-07-28.
 */
export type ClientEra = 'auto' | 'legacy' | 'modern';

/**
 * The built MCP server, started over stdio by an SDK client, the way an assistant starts it. It
 * looks for windows only where `env` says (hostEnv, discoveryEnv()), never in this machine's usual places.
 */
export async function connectMcp(
  env: Record<string, string | undefined>,
  cwd?: string,
  /** The MCP clientInfo name: each assistant has its own review. */
  clientName = 'redline-test',
  /** Arguments after the server's path, as an assistant's config gives them. */
  args: readonly string[] = [],
  era: ClientEra = 'auto',
): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_SERVER, ...args],
    cwd,
    // Routine events on stderr too: tests match the request/reply lines by correlation id.
    env: Object.fromEntries(
      Object.entries({ PATH: process.env.PATH, REDLINE_LOG: 'debug', ...NO_DISCOVERY_DEFAULT, ...env }).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    ),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const mode = era === 'modern' ? { pin: '2026-07-28' } : era;
  const client = new Client({ name: clientName, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** What a terminal of the host's window has: its socket and token, and where its discovery file is. */
export function hostEnv(host: Host, extra: Record<string, string> = {}): Record<string, string> {
  return { REDLINE_IPC_PATH: host.socketPath, REDLINE_IPC_TOKEN: host.token, ...discoveryEnv(), ...extra };
}

type WindowHint = z.infer<z.ZodObject<typeof WINDOW_HINT>>;
type WithNextSteps = z.infer<z.ZodObject<typeof NEXT_STEPS>> & WindowHint;

/** Each published tool's structured content on success, as its output schema declares it. */
export type ToolOutputs = {
  'present-review': ResultOf<'present-review'> & WithNextSteps;
  'get-review': ResultOf<'get-review'> & WithNextSteps;
  'get-review-feedback': ResultOf<'get-review-feedback'> & WithNextSteps;
  'await-review-feedback': z.infer<typeof AwaitReviewFeedbackResult> & WithNextSteps;
  'get-selection': ResultOf<'get-selection'> & WindowHint;
  'open-location': ResultOf<'open-location'> & WindowHint;
  'get-diagnostics': ResultOf<'get-diagnostics'> & WindowHint;
  'list-open-editors': ResultOf<'list-open-editors'> & WindowHint;
  'get-workspace-folders': ResultOf<'get-workspace-folders'> & WindowHint;
};
export type ToolName = keyof ToolOutputs;

/** A tool's result as the SDK client returns it: structured content on success only. */
export type ToolResult<N extends ToolName = ToolName> = {
  isError?: boolean;
  structuredContent?: ToolOutputs[N];
  content: Array<{ type: string; text: string }>;
};

/** Calls the tool `name` through `client`, its result typed by the tool's output schema. */
export function callTool<N extends ToolName>(
  client: Client,
  name: N,
  args: Record<string, unknown> = {},
): Promise<ToolResult<N>> {
  return client.callTool({ name, arguments: args }) as Promise<ToolResult<N>>;
}

/**
 * For a describe block: a host that keeps its reviews in files, as VS Code does, and one MCP
 * client on the built server, started before its tests and stopped after them.
 */
export function durableSession(): {
  readonly host: Host;
  readonly client: Client;
  call<N extends ToolName>(name: N, args?: Record<string, unknown>): Promise<ToolResult<N>>;
  /** What the MCP server wrote to stderr so far (debug lines included). */
  stderr(): string;
} {
  let host: Host | undefined;
  let mcp: Awaited<ReturnType<typeof connectMcp>> | undefined;
  beforeAll(async () => {
    assertBuilt();
    host = await startHost({ durable: true });
    mcp = await connectMcp(hostEnv(host), host.workspace);
  });
  afterAll(async () => {
    await mcp?.close();
    await host?.stop();
  });
  return {
    get host() {
      if (!host) throw new Error('the host starts in beforeAll');
      return host;
    },
    get client() {
      if (!mcp) throw new Error('the client connects in beforeAll');
      return mcp.client;
    },
    call: (name, args) => callTool(mcp!.client, name, args),
    stderr: () => mcp?.stderr() ?? '',
  };
}

/**
 * Runs the calls in order with at most `limit` in flight, as a client that respects the MCP
 * server's limit on calls in flight does; resolves with their results in order.
 */
export async function inFlightAtMost<T>(limit: number, calls: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      results[index] = await calls[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, worker));
  return results;
}
