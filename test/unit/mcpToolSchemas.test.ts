// The built MCP server as a client meets it on stdio: the tools it publishes (held to their one
// source, the tools' zod schemas), and the openings of both protocol eras that the SDK's stdio
// entry answers: `server/discover` and the per-request envelope of 2026-07-28, and `initialize`
// for the older revisions, in the orders real clients send them.

import { McpServer, SUPPORTED_PROTOCOL_VERSIONS, type DiscoverResult } from '@modelcontextprotocol/server';
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../../mcp-server/src/appView/uiExtension';
import { createServer } from '../../mcp-server/src/server';
import { REVIEW_VIEW_TOOLS } from '../../mcp-server/src/tools/reviewViewTools';
import { unreachableBridge } from '../../mcp-server/src/tools/toolContext';
import { silentLogger } from '../../shared/logger';
import { BuiltServer, PUBLISHED_TOOLS, type Reply, type ToolText } from '../integration/builtServer';

const MODERN = '2026-07-28';
const envelope = (protocolVersion = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': protocolVersion,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
});
const modern = (
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  protocolVersion = MODERN,
) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: { ...envelope(protocolVersion), ...(params._meta as object) } },
});
const initialize = (
  id: string | number,
  protocolVersion: string = SUPPORTED_PROTOCOL_VERSIONS[0],
  capabilities: object = {},
) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'test', version: '1' } },
});
/** What a chat that renders MCP Apps declares: it is also published the tools only the view calls. */
const RENDERS_VIEWS = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolsList = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

/** Every `type` that is an array, anywhere in a JSON Schema: clients' strict checks reject them. */
function typeArrays(schema: unknown, at = '#'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === 'type' && Array.isArray(value) ? [`${at}/type`] : typeArrays(value, `${at}/${key}`),
  );
}

/** A tool as registerTool is given it. */
interface ToolConfig {
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  readonly annotations?: unknown;
}

/** A tool as tools/list gives it. */
interface PublishedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
  readonly annotations: unknown;
}

describe('the tools the MCP server publishes', () => {
  /** As a client that renders no views lists them, and as one that does. */
  let tools: PublishedTool[];
  let toolsForViews: PublishedTool[];
  beforeAll(async () => {
    const list = async (capabilities: object) => {
      const server = new BuiltServer();
      server.send(initialize(1, undefined, capabilities), initialized, toolsList(2));
      const listed = ((await server.waitForReplies(2))[1] as Reply<{ tools: PublishedTool[] }>).result!.tools;
      await server.endInput();
      return listed;
    };
    [tools, toolsForViews] = await Promise.all([list({}), list(RENDERS_VIEWS)]);
  });

  it('holds each tool as its file registers it, with the JSON Schema its zod schemas convert to', () => {
    const registered: Array<{ name: string; config: ToolConfig }> = [];
    const spy = jest.spyOn(McpServer.prototype, 'registerTool').mockImplementation(function (
      this: McpServer,
      name: string,
      config: unknown,
    ) {
      registered.push({ name, config: config as ToolConfig });
      return undefined as never;
    });
    try {
      createServer({ bridge: unreachableBridge('unused'), cwd: '/', log: silentLogger });
    } finally {
      spy.mockRestore();
    }
    // The conversion the SDK applies (McpServer's tools/list handler), done here with zod itself.
    const jsonSchema = (schema: z.ZodObject, io: 'input' | 'output') =>
      z.toJSONSchema(schema, { target: 'draft-2020-12', io });
    const expected = registered.map(({ name, config }) => ({
      name,
      title: config.title,
      description: config.description,
      inputSchema: jsonSchema(config.inputSchema, 'input'),
      outputSchema: jsonSchema(config.outputSchema, 'output'),
      annotations: config.annotations,
    }));
    const asRegistered = (listed: PublishedTool[]) =>
      listed.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
        name,
        title,
        description,
        inputSchema,
        outputSchema,
        annotations,
      }));
    const viewOnly = new Set<string>(REVIEW_VIEW_TOOLS);

    // A client that renders no views is published every tool but the view's own; one that does, all.
    expect(
      registered
        .map((tool) => tool.name)
        .filter((name) => !viewOnly.has(name))
        .sort(),
    ).toEqual(PUBLISHED_TOOLS);
    expect(asRegistered(tools)).toEqual(expected.filter((tool) => !viewOnly.has(tool.name)));
    expect(asRegistered(toolsForViews)).toEqual(expected);
    // open-location changes what the user sees and may ask them first: an assistant's approval
    // rules must not treat it as a read.
    const readOnly = Object.fromEntries(
      toolsForViews.map((tool) => [tool.name, (tool.annotations as { readOnlyHint?: boolean }).readOnlyHint]),
    );
    expect(readOnly).toEqual({
      'answer-finding': false,
      'get-review-view': true,
      'reveal-review': false,
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

  it('writes no type arrays, which strict clients refuse (nullable is an anyOf)', () => {
    const found = toolsForViews.flatMap((tool) =>
      [...typeArrays(tool.inputSchema), ...typeArrays(tool.outputSchema)].map((at) => `${tool.name} ${at}`),
    );
    expect(found).toEqual([]);
  });
});

describe('the built MCP server, in both protocol eras', () => {
  const call = (id: number, name: string, args = {}) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));

  it('answers server/discover with its versions, capabilities, identity and instructions', async () => {
    const server = new BuiltServer();
    server.send(modern(1, 'server/discover'));
    const [reply] = (await server.waitForReplies(1)) as Array<Reply<DiscoverResult>>;
    expect(reply.result!.supportedVersions).toContain(MODERN);
    expect(reply.result!.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: { subscribe: true } });
    // Logging is not part of 2026-07-28: nothing to declare there.
    expect(reply.result!.capabilities.logging).toBeUndefined();
    expect(reply.result!.instructions).toMatch(/present-review/);
    expect(JSON.stringify(reply.result)).toContain(`"version":${JSON.stringify(version)}`);
    expect(await server.endInput()).toBe(0);
  });

  it('lists at once in 2026-07-28, with resultType and cache hints: tools for an hour, resources never', async () => {
    const server = new BuiltServer();
    server.send(
      modern(1, 'tools/list'),
      modern(2, 'resources/list'),
      modern(3, 'prompts/list'),
      modern(4, 'resources/templates/list'),
    );
    const replies = await server.waitForReplies(4);
    type Listed = { ttlMs: number; tools?: Array<{ name: string }>; resources?: Array<{ uri: string }> };
    const byId = (id: number) => (replies.find((reply) => reply.id === id) as Reply<Listed>).result!;
    for (const id of [1, 2, 3, 4]) expect(byId(id)).toMatchObject({ resultType: 'complete', cacheScope: 'private' });
    expect(byId(1).ttlMs).toBe(3_600_000);
    expect(byId(1).tools!.map((tool: { name: string }) => tool.name)).toContain('present-review');
    expect(byId(2).ttlMs).toBe(0);
    expect(byId(2).resources!.map((resource: { uri: string }) => resource.uri)).toEqual([
      'redline://review/current',
      'redline://review/current.sarif',
      'redline://selection',
    ]);
    expect(await server.endInput()).toBe(0);
  });

  it('names the versions it serves for one it does not (-32022)', async () => {
    const server = new BuiltServer();
    server.send(modern(1, 'tools/list', {}, '2099-01-01'));
    const [reply] = await server.waitForReplies(1);
    expect(reply.error?.code).toBe(-32022);
    expect(JSON.stringify(reply.error)).toContain(MODERN);
    expect(await server.endInput()).toBe(0);
  });

  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])(
    'answers initialize at %s with that version',
    async (asked) => {
      const server = new BuiltServer();
      server.send(initialize(1, asked), initialized, toolsList(2), { jsonrpc: '2.0', id: 3, method: 'ping' });
      const replies = await server.waitForReplies(3);
      expect(replies[0].result).toMatchObject({
        protocolVersion: asked,
        serverInfo: { name: 'redline', version },
        capabilities: { logging: {} },
      });
      expect(replies.find((reply) => reply.id === 3)?.result).toEqual({});
      expect(await server.endInput()).toBe(0);
    },
  );

  it.each([
    [
      'Codex: tools/list with a progress token',
      [{ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { progressToken: 7 } } }],
      'tools',
    ],
    ['Gemini CLI: prompts/list first', [{ jsonrpc: '2.0', id: 2, method: 'prompts/list' }], 'prompts'],
    [
      'the Inspector: logging/setLevel, then tools/list',
      [{ jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'debug' } }, toolsList(2)],
      'tools',
    ],
  ])('serves %s after initialize', async (_client, requests, listed) => {
    const server = new BuiltServer();
    server.send(initialize(1, '2025-06-18'), initialized, ...requests);
    const replies = await server.waitForReplies(1 + requests.length);
    const answer = replies.find((reply) => reply.id === 2) as Reply<Record<string, unknown[]>> | undefined;
    expect(answer?.result![listed as string].length).toBeGreaterThan(0);
    expect(replies.every((reply) => reply.error === undefined)).toBe(true);
    expect(await server.endInput()).toBe(0);
  });

  it('takes a 10 MiB call written in the same burst as the handshake', async () => {
    const server = new BuiltServer();
    const content = 'x'.repeat(10 * 1024 * 1024);
    server.send(initialize(1), initialized, toolsList(2), {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'present-review', arguments: { content } },
    });
    const replies = await server.waitForReplies(3);
    // It reached the tool whole: the tool's answer, not a size or parse error.
    const answer = replies.find((reply) => reply.id === 3) as Reply<ToolText> | undefined;
    expect(answer?.result!.content[0].text).toMatch(/No VS Code window/);
    expect(await server.endInput()).toBe(0);
  });

  it('serves a client that skips initialize as an older one, and refuses a bad message as the SDK does', async () => {
    const server = new BuiltServer();
    server.send({ jsonrpc: '2.0', id: 'x', method: 'no/such-method' }, call(2, 'open-location'));
    const replies = await server.waitForReplies(2);
    expect(replies.find((reply) => reply.id === 'x')?.error?.code).toBe(-32601);
    const answer = replies.find((reply) => reply.id === 2) as Reply<ToolText> | undefined;
    expect(answer?.result!.isError).toBe(true);
    expect(await server.endInput()).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits cleanly on %s, before and after its first answer', async (signal) => {
    const early = new BuiltServer();
    await early.started;
    const late = new BuiltServer();
    // Past the hand-over: only the full server answers a tool call.
    late.send(initialize(1), toolsList(2), call(3, 'get-review'));
    await late.waitForReplies(3);
    expect(await early.kill(signal)).toBe(0);
    expect(await late.kill(signal)).toBe(0);
  });
});
