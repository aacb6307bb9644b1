// The MCP server answers the handshake from replies the build captured (handshake.ts; they are in
// dist/mcp-server-handshake.json). These tests hold the published replies to their one source, the
// tools' zod schemas and the SDK, and hold the fast path to answering only what the SDK would
// answer the same way.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  InitializeRequestSchema,
  InitializedNotificationSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { HandshakeResponder, MAX_HANDSHAKE_LINE_BYTES, recognizeHandshake, type HandOff, type PublishedHandshake } from '../../mcp-server/src/handshake';
import { captureHandshake } from '../../mcp-server/src/handshakeCapture';
import { createServer } from '../../mcp-server/src/server';
import { unreachableBridge } from '../../mcp-server/src/tools/toolContext';

const BUILT_SERVER = path.resolve(__dirname, '../../dist/mcp-server.js');

type Reply = { id?: string | number; result?: any; error?: { code: number; message: string } };

/** The built server over stdio, spoken to line by line. */
class BuiltServer {
  readonly replies: Reply[] = [];
  readonly exited: Promise<number | null>;
  /** Resolves when the server has logged that it started (its signal handlers are in place). */
  readonly started: Promise<void>;
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private waiters: Array<() => void> = [];

  constructor(env: Record<string, string> = {}) {
    if (!fs.existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run "npm run build" first.`);
    // With debug logging, so that the "started" line says when its signal handlers are in place.
    this.child = spawn(process.execPath, [BUILT_SERVER], { env: { PATH: process.env.PATH ?? '', REDLINE_LOG: 'debug', ...env } });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const lines = (this.buffered + chunk).split('\n');
      this.buffered = lines.pop()!;
      for (const line of lines) this.replies.push(JSON.parse(line));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.started = new Promise((resolve) => {
      this.child.stderr.on('data', (chunk: Buffer) => {
        this.stderr += chunk.toString();
        if (this.stderr.includes('"event":"started"')) resolve();
      });
    });
  }

  send(...messages: object[]): void {
    this.child.stdin.write(messages.map((m) => JSON.stringify(m) + '\n').join(''));
  }

  /** Resolves once `count` replies have arrived. */
  async waitForReplies(count: number): Promise<Reply[]> {
    while (this.replies.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${this.replies.length} of ${count} replies: ${JSON.stringify(this.replies)}`)), 10_000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.replies;
  }

  endInput(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(signal: NodeJS.Signals): Promise<number | null> {
    this.child.kill(signal);
    return this.exited;
  }
}

const initialize = (id: string | number, protocolVersion: string = SUPPORTED_PROTOCOL_VERSIONS[0]) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolsList = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

/** What the built server answers to the handshake, for every version a client may ask for. */
async function publishedByBuiltServer(): Promise<PublishedHandshake> {
  const versions = [...SUPPORTED_PROTOCOL_VERSIONS, '1999-12-31'];
  const server = new BuiltServer();
  try {
    // Every initialize after the first goes to the full server; ask each in a server of its own.
    const answers = await Promise.all(
      versions.map(async (version) => {
        const one = new BuiltServer();
        one.send(initialize(1, version));
        const [reply] = await one.waitForReplies(1);
        await one.endInput();
        return reply.result;
      }),
    );
    server.send(initialize(1), initialized, toolsList(2));
    const replies = await server.waitForReplies(2);
    return {
      initialize: Object.fromEntries(SUPPORTED_PROTOCOL_VERSIONS.map((version, i) => [version, answers[i]])),
      initializeOtherwise: answers[versions.length - 1],
      toolsList: replies[1].result,
    };
  } finally {
    await server.endInput();
  }
}

describe('the tools/list the MCP server publishes', () => {
  let published: PublishedHandshake;
  beforeAll(async () => {
    published = await publishedByBuiltServer();
  });

  it('holds each tool as its file registers it, with the JSON Schema its zod schemas convert to', () => {
    const registered: Array<{ name: string; config: any }> = [];
    const spy = jest.spyOn(McpServer.prototype, 'registerTool').mockImplementation(function (this: McpServer, name: string, config: any) {
      registered.push({ name, config });
      return undefined as never;
    });
    try {
      createServer({ bridge: unreachableBridge('unused'), cwd: '/' });
    } finally {
      spy.mockRestore();
    }
    // The conversion the SDK applies (McpServer's tools/list handler), done here with zod itself.
    const jsonSchema = (shape: z.ZodRawShape | z.ZodObject, io: 'input' | 'output') =>
      z.toJSONSchema(shape instanceof z.ZodObject ? shape : z.object(shape), { target: 'draft-7', io });
    const expected = registered.map(({ name, config }) => ({
      name,
      title: config.title,
      description: config.description,
      inputSchema: jsonSchema(config.inputSchema, 'input'),
      outputSchema: jsonSchema(config.outputSchema, 'output'),
      annotations: config.annotations,
    }));
    const tools = (published.toolsList as { tools: Array<Record<string, unknown>> }).tools;
    const fromToolFiles = tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({ name, title, description, inputSchema, outputSchema, annotations }));

    expect(registered.map((tool) => tool.name).sort()).toEqual([
      'await-review-feedback',
      'get-diagnostics',
      'get-review',
      'get-review-feedback',
      'get-selection',
      'get-workspace-folders',
      'list-open-editors',
      'open-location',
      'present-review',
    ]);
    expect(fromToolFiles).toEqual(expected);
    // open-location changes what the user sees and may ask them first: an assistant's approval
    // rules must not treat it as a read.
    const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, (tool.annotations as { readOnlyHint?: boolean }).readOnlyHint]));
    expect(readOnly).toEqual({
      'await-review-feedback': true,
      'get-diagnostics': true,
      'get-review': true,
      'get-review-feedback': true,
      'get-selection': true,
      'get-workspace-folders': true,
      'list-open-editors': true,
      'open-location': false,
      'present-review': false,
    });
  });

  it('is what the full server answers, as are its initialize replies (dist/ is not stale)', async () => {
    // The build stamps the version into both bundles; here the sources run unstamped.
    const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
    const stamped = JSON.parse(JSON.stringify(await captureHandshake()).replaceAll('"version":"0.0.0-dev"', `"version":${JSON.stringify(version)}`));
    expect((published.initializeOtherwise as { serverInfo: unknown }).serverInfo).toEqual({ name: 'redline', version });
    expect(published).toEqual(stamped);
  });
});

describe('recognizeHandshake', () => {
  const line = (message: unknown) => JSON.stringify(message);

  it.each([
    ['the SDK client', initialize(0, '2025-06-18')],
    [
      'an editor with roots, sampling and elicitation',
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { roots: { listChanged: true }, sampling: { context: {}, tools: {} }, elicitation: { form: {}, url: {} }, experimental: { x: {} } },
          clientInfo: { name: 'Visual Studio Code', title: 'VS Code', version: '1.101.0', websiteUrl: 'https://code.visualstudio.com' },
        },
      },
    ],
    ['a version this server does not know', initialize(7, '2099-01-01')],
  ])('answers the initialize of %s', (_, message) => {
    expect(recognizeHandshake(line(message))).toEqual({ method: 'initialize', id: message.id, protocolVersion: message.params.protocolVersion });
  });

  it('answers tools/list with or without a cursor, and takes the initialized notification', () => {
    expect(recognizeHandshake(line(toolsList(2)))).toEqual({ method: 'tools/list', id: 2 });
    expect(recognizeHandshake(line({ ...toolsList('b'), params: { cursor: 'x' } }))).toEqual({ method: 'tools/list', id: 'b' });
    expect(recognizeHandshake(line(initialized) + '\r')).toEqual({ method: 'notifications/initialized' });
  });

  it.each([
    ['not JSON', '{"jsonrpc":'],
    ['a blank line', ''],
    ['a batch', line([toolsList(1)])],
    ['another JSON-RPC version', line({ ...toolsList(1), jsonrpc: '1.0' })],
    ['a fractional id', line(toolsList(1.5))],
    ['a null id', line(toolsList(null as never))],
    ['an extra member', line({ ...toolsList(1), extra: true })],
    ['a progress token', line({ ...toolsList(1), params: { _meta: { progressToken: 1 } } })],
    ['an unknown tools/list param', line({ ...toolsList(1), params: { filter: 'x' } })],
    ['a ping', line({ jsonrpc: '2.0', id: 1, method: 'ping' })],
    ['a tool call', line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get-review' } })],
    ['an initialize without clientInfo', line({ ...initialize(1), params: { protocolVersion: 'x', capabilities: {} } })],
    ['an initialize with task capabilities', line({ ...initialize(1), params: { ...initialize(1).params, capabilities: { tasks: {} } } })],
    ['an initialize with client icons', line({ ...initialize(1), params: { ...initialize(1).params, clientInfo: { name: 'a', version: '1', icons: [] } } })],
    ['an initialize with a malformed root capability', line({ ...initialize(1), params: { ...initialize(1).params, capabilities: { roots: { listChanged: 'yes' } } } })],
    ['an initialized notification with an id', line({ ...initialized, id: 3 })],
  ])('leaves %s to the full server', (_, text) => {
    expect(recognizeHandshake(text)).toBeUndefined();
  });

  it('accepts nothing that the SDK would refuse', () => {
    // Mostly well-formed messages, each part now and then replaced by arbitrary JSON or joined by
    // an unexpected member, so that both sides of every check are reached.
    const json = fc.jsonValue({ maxDepth: 2 });
    const usually = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: arb, weight: 8 }, { arbitrary: json, weight: 1 });
    const absent = fc.constant(undefined);
    const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.oneof(absent, arb);
    const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: absent, weight: 8 }, { arbitrary: arb, weight: 1 });
    const object = fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 2 });
    const half = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, json);
    const capability = fc.record({
      listChanged: sometimes(half(fc.boolean())),
      context: sometimes(half(object)),
      tools: sometimes(half(object)),
      form: sometimes(half(fc.record({ applyDefaults: sometimes(half(fc.boolean())) }))),
      url: sometimes(half(object)),
      x: rarely(json),
    });
    const capabilities = fc.dictionary(
      fc.constantFrom('roots', 'sampling', 'elicitation', 'experimental', 'extensions', 'tasks', 'other'),
      usually(fc.oneof(capability, fc.dictionary(fc.string({ maxLength: 3 }), half(object), { maxKeys: 2 }))),
      { maxKeys: 2 },
    );
    const clientInfo = fc.record({
      name: usually(fc.string()),
      version: usually(fc.string()),
      title: sometimes(usually(fc.string())),
      websiteUrl: sometimes(usually(fc.string())),
      description: sometimes(usually(fc.string())),
      icons: rarely(json),
      other: rarely(json),
    });
    const initializeParams = fc.record({
      protocolVersion: usually(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS, 'x')),
      capabilities: usually(capabilities),
      clientInfo: usually(clientInfo),
      _meta: rarely(json),
    });
    const otherParams = fc.record({ cursor: sometimes(usually(fc.string())), _meta: rarely(json), other: rarely(json) });
    const message = fc.constantFrom('initialize', 'initialize', 'initialize', 'notifications/initialized', 'tools/list', 'ping').chain((method) =>
      fc.record({
        jsonrpc: usually(fc.constant('2.0')),
        id: fc.oneof({ arbitrary: absent, weight: 1 }, { arbitrary: usually(fc.oneof(fc.integer(), fc.string(), fc.double())), weight: 3 }),
        method: fc.constant(method),
        params: method === 'initialize' ? usually(initializeParams) : sometimes(usually(otherParams)),
        extra: rarely(json),
      }),
    );
    const schemaOf = { initialize: InitializeRequestSchema, 'notifications/initialized': InitializedNotificationSchema, 'tools/list': ListToolsRequestSchema };
    const accepted = { initialize: 0, 'notifications/initialized': 0, 'tools/list': 0 };
    fc.assert(
      fc.property(message, (candidate) => {
        const line = JSON.stringify(candidate);
        const recognized = recognizeHandshake(line);
        if (!recognized) return;
        accepted[recognized.method]++;
        // What the SDK's stdio transport parses: the line, not the object (undefined members vanish).
        const envelope = JSONRPCMessageSchema.safeParse(JSON.parse(line));
        expect(envelope.success).toBe(true);
        expect(schemaOf[recognized.method].safeParse(envelope.data).success).toBe(true);
      }),
      { numRuns: 20_000 },
    );
    // Every kind must be accepted often enough for this test to mean something.
    for (const count of Object.values(accepted)) expect(count).toBeGreaterThan(50);
  });
});

describe('HandshakeResponder', () => {
  const published: PublishedHandshake = {
    initialize: { '2025-06-18': { protocolVersion: '2025-06-18' }, '2024-11-05': { protocolVersion: '2024-11-05' } },
    initializeOtherwise: { protocolVersion: '2025-06-18' },
    toolsList: { tools: [] },
  };

  function responder() {
    const written: unknown[] = [];
    const handOffs: HandOff[] = [];
    const afterWrite: Array<() => void> = [];
    const r = new HandshakeResponder(published, {
      write: (line, done) => {
        written.push(JSON.parse(line));
        afterWrite.push(done);
      },
      handOff: (state) => handOffs.push(state),
    });
    return { r, written, handOffs, afterWrite };
  }
  const bytes = (...messages: object[]) => Buffer.from(messages.map((m) => JSON.stringify(m) + '\n').join(''));

  it('answers initialize for the version asked, or the latest it has, and tools/list', () => {
    const { r, written, handOffs } = responder();
    r.push(bytes(initialize(1, '2024-11-05'), initialized, toolsList(2)));
    expect(written).toEqual([
      { result: { protocolVersion: '2024-11-05' }, jsonrpc: '2.0', id: 1 },
      { result: { tools: [] }, jsonrpc: '2.0', id: 2 },
    ]);
    expect(handOffs).toEqual([]);

    const other = responder();
    other.r.push(bytes(initialize('a', '2001-01-01')));
    expect(other.written).toEqual([{ result: { protocolVersion: '2025-06-18' }, jsonrpc: '2.0', id: 'a' }]);
  });

  it('reads messages split anywhere, and hands off once tools/list has been written', async () => {
    const { r, written, handOffs, afterWrite } = responder();
    const input = bytes(initialize(1, '2025-06-18'), initialized, toolsList(2));
    for (let i = 0; i < input.length; i++) r.push(input.subarray(i, i + 1));
    expect(written).toHaveLength(2);
    afterWrite.forEach((done) => done());
    await new Promise(setImmediate);
    expect(handOffs).toEqual([{ replay: bytes(initialize(1, '2025-06-18'), initialized), answeredInitialize: 1, rest: Buffer.alloc(0) }]);
  });

  it('hands off at the first message it does not answer, with everything from there on', () => {
    const { r, written, handOffs } = responder();
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-review', arguments: {} } };
    r.push(Buffer.concat([bytes(initialize(1, '2025-06-18'), call, toolsList(4)), Buffer.from('{"partial"')]));
    expect(written).toHaveLength(1);
    expect(handOffs).toHaveLength(1);
    expect(handOffs[0].replay).toEqual(bytes(initialize(1, '2025-06-18')));
    expect(handOffs[0].rest.toString()).toBe(bytes(call, toolsList(4)).toString() + '{"partial"');
  });

  it('leaves a second initialize to the full server', () => {
    const { r, written, handOffs } = responder();
    r.push(bytes(initialize(1, '2025-06-18'), initialize(2, '2025-06-18')));
    expect(written).toHaveLength(1);
    expect(handOffs[0].rest).toEqual(bytes(initialize(2, '2025-06-18')));
  });

  it('hands off as soon as a line grows longer than any handshake message', () => {
    const { r, handOffs } = responder();
    const start = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"content":"' + 'x'.repeat(MAX_HANDSHAKE_LINE_BYTES));
    r.push(start);
    expect(handOffs).toEqual([{ replay: Buffer.alloc(0), answeredInitialize: undefined, rest: start }]);
  });
});

describe('the built MCP server, from handshake to full server', () => {
  const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

  it('answers everything once, in one burst, even with the initialize id reused', async () => {
    const server = new BuiltServer();
    server.send(initialize(1), initialized, toolsList(2), call(3, 'get-review'), { jsonrpc: '2.0', id: 1, method: 'ping' }, toolsList(4));
    const replies = await server.waitForReplies(5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.replies).toHaveLength(5);
    const byId = (id: number) => replies.filter((reply) => reply.id === id);
    expect(byId(1).map((reply) => reply.result)).toEqual(expect.arrayContaining([expect.objectContaining({ serverInfo: expect.anything() }), {}]));
    expect(byId(2)[0].result).toEqual(byId(4)[0].result);
    expect(byId(3)[0].result.isError).toBe(true);
    // No variable and no window of this folder: discovery's answer, after its retries.
    expect(byId(3)[0].result.content[0].text).toMatch(/No VS Code window/);
    expect(await server.endInput()).toBe(0);
  });

  it('takes a 10 MiB call written in the same burst as the handshake', async () => {
    const server = new BuiltServer();
    const content = 'x'.repeat(10 * 1024 * 1024);
    server.send(initialize(1), initialized, toolsList(2), { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'present-review', arguments: { content } } });
    const replies = await server.waitForReplies(3);
    // It reached the tool whole: the tool's answer, not a size or parse error.
    expect(replies.find((reply) => reply.id === 3)?.result.content[0].text).toMatch(/No VS Code window/);
    expect(await server.endInput()).toBe(0);
  });

  it('serves a client that skips the handshake, and refuses a bad message as the SDK does', async () => {
    const server = new BuiltServer();
    server.send({ jsonrpc: '2.0', id: 'x', method: 'no/such-method' }, call(2, 'open-location'));
    const replies = await server.waitForReplies(2);
    expect(replies.find((reply) => reply.id === 'x')?.error?.code).toBe(-32601);
    expect(replies.find((reply) => reply.id === 2)?.result.isError).toBe(true);
    expect(await server.endInput()).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits cleanly on %s, before and after the hand-off', async (signal) => {
    const early = new BuiltServer();
    await early.started;
    const late = new BuiltServer();
    late.send(initialize(1), toolsList(2));
    await late.waitForReplies(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await early.kill(signal)).toBe(0);
    expect(await late.kill(signal)).toBe(0);
  });
});
