// The three clients of the conformance table, behind one face: the TypeScript SDK 1.x Client
// (Gemini CLI, Cursor and Cline embed it; it checks structured content against the output schema
// after tools/list), the v2 Client our own tests use, and the official Python SDK. The two
// TypeScript clients run over a transport of our own that keeps every line the server wrote, so
// that the table checks what went over the wire, below any SDK.

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import * as path from 'path';
import { MCP_SERVER } from '../harness';

/** How the server is started: its environment (beside PATH) and working directory. */
export interface ServerLaunch {
  readonly env: Record<string, string>;
  readonly cwd: string;
}

/** What the caller was handed: the tool's result, or what the client threw instead. */
export type Outcome =
  | {
      readonly kind: 'result';
      readonly isError: boolean;
      readonly text: string[];
      readonly structuredContent?: unknown;
    }
  | { readonly kind: 'thrown'; readonly message: string }
  | { readonly kind: 'cancelled' };

export interface ListedTool {
  readonly name: string;
  readonly outputSchema?: object;
}

/** One connection to one built server, through one client. */
export interface Connection {
  readonly tools: readonly ListedTool[];
  call(name: string, args: Record<string, unknown>): Promise<Outcome>;
  /** Starts the call and cancels it once `when` resolves; resolves with what the caller got. */
  callAndCancel(name: string, args: Record<string, unknown>, when: Promise<void>): Promise<Outcome>;
  /** What crossed the connection below the SDK: every message the server wrote, and the tool calls sent. */
  wire(): Promise<Wire>;
  close(): Promise<void>;
}

export interface Wire {
  readonly received: readonly RawMessage[];
  /** The tools/call requests the client sent, in order. */
  readonly sentCalls: ReadonlyArray<{ id: unknown; name: string }>;
}

/** A JSON-RPC message as it crossed the connection: the fields the checks read. */
export interface RawMessage {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: { readonly name?: string };
  readonly result?: {
    readonly tools?: readonly ListedTool[];
    readonly isError?: boolean;
    readonly structuredContent?: unknown;
    readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  };
  readonly error?: { readonly code: number; readonly message: string };
}

export interface ConformanceClient {
  readonly name: string;
  connect(launch: ServerLaunch): Promise<Connection>;
  dispose(): Promise<void>;
}

/** Long enough for any call of the table on a loaded machine; only a hang reaches it. */
export const CALL_BOUND_MS = 60_000;

/** The built server over stdio, every line it writes kept and parsed. Serves either SDK's Client. */
class LineTransport {
  readonly received: RawMessage[] = [];
  readonly sentCalls: Array<{ id: unknown; name: string }> = [];
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private child?: ChildProcessWithoutNullStreams;
  private buffered = '';

  constructor(private readonly launch: ServerLaunch) {}

  async start(): Promise<void> {
    const child = spawn(process.execPath, [MCP_SERVER], {
      cwd: this.launch.cwd,
      env: { PATH: process.env.PATH ?? '', ...this.launch.env },
    });
    this.child = child;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (this.buffered + chunk).split('\n');
      this.buffered = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as RawMessage;
        this.received.push(message);
        this.onmessage?.(message);
      }
    });
    // The server logs to stderr; nothing of it is wanted here, but the pipe must be read.
    child.stderr.resume();
    child.on('error', (error) => this.onerror?.(error));
    child.on('close', () => this.onclose?.());
  }

  async send(message: unknown): Promise<void> {
    const { method, id, params } = message as RawMessage;
    if (method === 'tools/call') this.sentCalls.push({ id, name: String(params?.name) });
    this.child!.stdin.write(JSON.stringify(message) + '\n');
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin.end();
    await exited;
  }
}

type SdkCall = (name: string, args: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>;

async function outcomeOf(call: Promise<unknown>): Promise<Outcome> {
  try {
    const result = (await call) as NonNullable<RawMessage['result']>;
    const text = (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text ?? '');
    return { kind: 'result', isError: result.isError === true, text, structuredContent: result.structuredContent };
  } catch (error) {
    return { kind: 'thrown', message: String((error as Error)?.message ?? error) };
  }
}

/** A TypeScript SDK client over a LineTransport: what both SDK lines share. */
async function typeScriptConnection(
  launch: ServerLaunch,
  open: (
    transport: LineTransport,
  ) => Promise<{ callTool: SdkCall; listTools: () => Promise<{ tools: ListedTool[] }>; close: () => Promise<void> }>,
): Promise<Connection> {
  const transport = new LineTransport(launch);
  const sdk = await open(transport);
  // As a real client does before calling: the 1.x Client keeps the output schemas it is given here.
  const { tools } = await sdk.listTools();
  return {
    tools,
    wire: async () => ({ received: transport.received, sentCalls: transport.sentCalls }),
    call: (name, args) => outcomeOf(sdk.callTool(name, args)),
    callAndCancel: (name, args, when) => {
      const abort = new AbortController();
      void when.then(() => abort.abort());
      return outcomeOf(sdk.callTool(name, args, abort.signal)).then((outcome) =>
        outcome.kind === 'thrown' && abort.signal.aborted ? { kind: 'cancelled' } : outcome,
      );
    },
    close: () => sdk.close(),
  };
}

export const sdkV1: ConformanceClient = {
  name: 'SDK 1.x Client',
  connect: (launch) =>
    typeScriptConnection(launch, async (transport) => {
      const client = new ClientV1({ name: 'redline-conformance-v1', version: '1.0.0' });
      await client.connect(transport);
      return {
        callTool: (name, args, signal) =>
          client.callTool({ name, arguments: args }, undefined, { signal, timeout: CALL_BOUND_MS }),
        listTools: () => client.listTools() as Promise<{ tools: ListedTool[] }>,
        close: () => client.close(),
      };
    }),
  dispose: async () => undefined,
};

export const sdkV2: ConformanceClient = {
  name: 'SDK v2 Client',
  connect: (launch) =>
    typeScriptConnection(launch, async (transport) => {
      // 'auto' probes server/discover first, and so speaks 2026-07-28 with Redline: the other era.
      const client = new ClientV2(
        { name: 'redline-conformance-v2', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(transport);
      if (client.getProtocolEra() !== 'modern')
        throw new Error(`the v2 client negotiated ${client.getNegotiatedProtocolVersion()}, not 2026-07-28`);
      return {
        callTool: (name, args, signal) =>
          client.callTool({ name, arguments: args }, { signal, timeout: CALL_BOUND_MS }),
        listTools: () => client.listTools() as Promise<{ tools: ListedTool[] }>,
        close: () => client.close(),
      };
    }),
  dispose: async () => undefined,
};

/** The Python SDK, through test/python/drive_server.py in its interactive mode: one process for every connection. */
export function pythonClient(python: string): ConformanceClient {
  let driver: PythonDriver | undefined;
  return {
    name: 'Python SDK',
    connect: async (launch) => {
      driver ??= new PythonDriver(python);
      return driver.connect(launch);
    },
    dispose: async () => driver?.stop(),
  };
}

const DRIVER = path.resolve(__dirname, '../../python/drive_server.py');

/** A line drive_server.py answers with: which fields are set depends on the command. */
interface DriverAnswer {
  readonly ref: string;
  readonly thrown?: string;
  readonly cancelled?: boolean;
  readonly session?: string;
  readonly tools?: readonly ListedTool[];
  readonly result?: { readonly isError: boolean; readonly text: string[]; readonly structuredContent?: unknown };
  readonly received?: readonly RawMessage[];
  readonly sent?: readonly RawMessage[];
}

/** drive_server.py --interactive: commands as JSON lines on its stdin, answers as JSON lines on its stdout. */
class PythonDriver {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<string, (answer: DriverAnswer) => void>();
  private buffered = '';
  private stderr = '';
  private next = 0;

  constructor(python: string) {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV'].includes(name)),
    );
    this.child = spawn(python, [DRIVER, '--interactive'], { env });
    this.child.stderr
      .setEncoding('utf8')
      .on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-20_000)));
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (this.buffered + chunk).split('\n');
      this.buffered = lines.pop()!;
      for (const line of lines) {
        const answer = JSON.parse(line) as DriverAnswer;
        this.waiting.get(answer.ref)?.(answer);
        this.waiting.delete(answer.ref);
      }
    });
    this.child.on('close', (code) => {
      for (const [ref, wake] of this.waiting) wake({ ref, thrown: `drive_server.py exited (${code}): ${this.stderr}` });
      this.waiting.clear();
    });
  }

  private ask(command: Record<string, unknown>): { ref: string; answer: Promise<DriverAnswer> } {
    const ref = String(this.next++);
    const answer = new Promise<DriverAnswer>((resolve) => this.waiting.set(ref, resolve));
    this.child.stdin.write(JSON.stringify({ ...command, ref }) + '\n');
    return { ref, answer };
  }

  async connect(launch: ServerLaunch): Promise<Connection> {
    const server = {
      command: process.execPath,
      args: [MCP_SERVER],
      env: { PATH: process.env.PATH ?? '', ...launch.env },
      cwd: launch.cwd,
    };
    const connected = await this.ask({ op: 'connect', server, clientName: 'redline-conformance-python' }).answer;
    if (connected.thrown) throw new Error(`The Python SDK did not connect: ${connected.thrown}`);
    const session = connected.session!;
    const outcome = (answer: DriverAnswer): Outcome =>
      answer.cancelled
        ? { kind: 'cancelled' }
        : answer.thrown !== undefined
          ? { kind: 'thrown', message: answer.thrown }
          : { kind: 'result', ...answer.result! };
    return {
      tools: connected.tools!,
      call: async (name, args) => outcome(await this.ask({ op: 'call', session, name, arguments: args }).answer),
      callAndCancel: async (name, args, when) => {
        const { ref, answer } = this.ask({ op: 'call', session, name, arguments: args });
        void when.then(() => this.child.stdin.write(JSON.stringify({ op: 'cancel', call: ref }) + '\n'));
        return outcome(await answer);
      },
      wire: async () => {
        const { received, sent } = await this.ask({ op: 'wire', session }).answer;
        const sentCalls = sent!
          .filter((m) => m.method === 'tools/call')
          .map((m) => ({ id: m.id, name: String(m.params?.name) }));
        return { received: received!, sentCalls };
      },
      close: async () => void (await this.ask({ op: 'close', session }).answer),
    };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    this.child.stdin.end();
    await exited;
  }
}
