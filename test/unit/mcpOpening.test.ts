// The entry answers a client's opening from the full server's answers captured at build time
// (mcp-server/src/opening/). These tests hold it to recognizing only what the SDK accepts, to
// answering exactly what the built full server answers, in both eras, and to handing the stream
// over with nothing lost or answered twice.

import { isSpecType, SUPPORTED_PROTOCOL_VERSIONS, type SpecTypeName } from '@modelcontextprotocol/server';
import * as fc from 'fast-check';
import { recognizeOpening, type OpeningMessage } from '../../mcp-server/src/opening/openingMessages';
import {
  MAX_OPENING_LINE_BYTES,
  OpeningResponder,
  type HandOff,
  type PublishedOpening,
} from '../../mcp-server/src/opening/openingResponder';
import { BuiltServer, type Reply, type ToolText } from '../integration/builtServer';
import { until } from '../support/until';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true } },
  'io.modelcontextprotocol/clientInfo': { name: 'Claude Code', version: '2.1.331' },
};
/** What a client that renders MCP Apps declares, VS Code's way. */
const uiCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const initialize = (id: string | number, protocolVersion = '2025-06-18', capabilities: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'codex-mcp-client', version: '0.169.0' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const request = (id: string | number, method: string, params?: object) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params && { params }),
});
const modern = (id: string | number, method: string) => request(id, method, { _meta: envelope });
const modernWithUi = (id: string | number, method: string) =>
  request(id, method, {
    _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': { roots: {}, ...uiCapabilities } },
  });
const line = (message: unknown) => JSON.stringify(message);
const bytes = (...messages: object[]) => Buffer.from(messages.map((m) => line(m) + '\n').join(''));

describe('recognizeOpening', () => {
  it.each<[string, object, OpeningMessage]>([
    ['initialize', initialize(1), { method: 'initialize', id: 1, protocolVersion: '2025-06-18', ui: false }],
    [
      'initialize for a version no server has',
      initialize('a', '2099-01-01'),
      { method: 'initialize', id: 'a', protocolVersion: '2099-01-01', ui: false },
    ],
    ['the initialized notification', initialized, { method: 'notifications/initialized' }],
    ['server/discover', modern(1, 'server/discover'), { method: 'server/discover', id: 1, ui: false }],
    [
      'initialize from a client that renders MCP Apps',
      initialize(1, '2025-06-18', uiCapabilities),
      { method: 'initialize', id: 1, protocolVersion: '2025-06-18', ui: true },
    ],
    [
      'server/discover from a client that renders MCP Apps',
      modernWithUi(1, 'server/discover'),
      { method: 'server/discover', id: 1, ui: true },
    ],
    [
      'a 2026-07-28 tools/list from a client that renders MCP Apps',
      modernWithUi(2, 'tools/list'),
      { method: 'tools/list', id: 2, modern: true, ui: true },
    ],
    [
      'the extension without the content type of its views',
      initialize(1, '2025-06-18', { extensions: { 'io.modelcontextprotocol/ui': {} } }),
      { method: 'initialize', id: 1, protocolVersion: '2025-06-18', ui: false },
    ],
    [
      "Codex's tools/list with a progress token",
      request(2, 'tools/list', { _meta: { progressToken: 0 } }),
      { method: 'tools/list', id: 2, modern: false, ui: false },
    ],
    ["Gemini's prompts/list", request(2, 'prompts/list'), { method: 'prompts/list', id: 2, modern: false, ui: false }],
    ['a 2026-07-28 tools/list', modern(2, 'tools/list'), { method: 'tools/list', id: 2, modern: true, ui: false }],
    [
      'resource templates in 2026-07-28',
      modern(3, 'resources/templates/list'),
      { method: 'resources/templates/list', id: 3, modern: true, ui: false },
    ],
    [
      "the Inspector's logging/setLevel",
      request(2, 'logging/setLevel', { level: 'debug' }),
      { method: 'logging/setLevel', id: 2 },
    ],
    ['a ping', request(9, 'ping'), { method: 'ping', id: 9 }],
  ])('recognizes %s', (_, message, expected) => {
    expect(recognizeOpening(line(message))).toEqual(expected);
  });

  it.each([
    ['not JSON', '{"jsonrpc":'],
    ['a batch', line([request(1, 'tools/list')])],
    ['a fractional id', line(request(1.5, 'tools/list'))],
    ['an extra member', line({ ...request(1, 'tools/list'), extra: true })],
    ['a cursor', line(request(1, 'tools/list', { cursor: 'x' }))],
    ['an unknown _meta key', line(request(1, 'tools/list', { _meta: { progressToken: 1, other: 1 } }))],
    [
      'an envelope of another revision',
      line(
        request(1, 'tools/list', { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }),
      ),
    ],
    [
      'an envelope without client info',
      line(request(1, 'server/discover', { _meta: { ...envelope, 'io.modelcontextprotocol/clientInfo': undefined } })),
    ],
    ['a discover without an envelope', line(request(1, 'server/discover'))],
    ['a ping in the 2026-07-28 envelope', line(modern(1, 'ping'))],
    ['resources/list (it asks the window)', line(request(1, 'resources/list'))],
    ['an unknown log level', line(request(1, 'logging/setLevel', { level: 'loud' }))],
    ['a tool call', line(request(1, 'tools/call', { name: 'get-review' }))],
    [
      'initialize with task capabilities',
      line({ ...initialize(1), params: { ...initialize(1).params, capabilities: { tasks: {} } } }),
    ],
    [
      'initialize with client icons',
      line({
        ...initialize(1),
        params: { ...initialize(1).params, clientInfo: { name: 'a', version: '1', icons: [] } },
      }),
    ],
    ['initialize with _meta', line({ ...initialize(1), params: { ...initialize(1).params, _meta: {} } })],
  ])('leaves %s to the full server', (_, text) => {
    expect(recognizeOpening(text)).toBeUndefined();
  });

  it('recognizes nothing that the SDK would refuse', () => {
    // Mostly well-formed messages, each part now and then replaced by arbitrary JSON or joined by
    // an unexpected member, so that both sides of every check are reached.
    const json = fc.jsonValue({ maxDepth: 2 });
    const usually = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: arb, weight: 8 }, { arbitrary: json, weight: 1 });
    const absent = fc.constant(undefined);
    const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.oneof(absent, arb);
    const rarely = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: absent, weight: 8 }, { arbitrary: arb, weight: 1 });
    const object = fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 2 });
    const capabilities = fc.dictionary(
      fc.constantFrom('roots', 'sampling', 'elicitation', 'experimental', 'tasks', 'other'),
      usually(
        fc.record({
          listChanged: sometimes(usually(fc.boolean())),
          context: sometimes(usually(object)),
          x: rarely(json),
        }),
      ),
      { maxKeys: 2 },
    );
    const clientInfo = fc.record({
      name: usually(fc.string()),
      version: usually(fc.string()),
      title: sometimes(usually(fc.string())),
      icons: rarely(json),
    });
    const meta = fc.record({
      'io.modelcontextprotocol/protocolVersion': usually(fc.constantFrom('2026-07-28', '2025-06-18')),
      'io.modelcontextprotocol/clientCapabilities': usually(capabilities),
      'io.modelcontextprotocol/clientInfo': usually(clientInfo),
      progressToken: sometimes(usually(fc.oneof(fc.integer(), fc.string()))),
      other: rarely(json),
    });
    const params = (method: string) =>
      method === 'initialize'
        ? usually(
            fc.record({
              protocolVersion: usually(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS, 'x')),
              capabilities: usually(capabilities),
              clientInfo: usually(clientInfo),
            }),
          )
        : method === 'logging/setLevel'
          ? usually(fc.record({ level: usually(fc.constantFrom('debug', 'error', 'loud')) }))
          : sometimes(usually(fc.record({ _meta: sometimes(usually(meta)), cursor: rarely(json) })));
    const methods = [
      'initialize',
      'notifications/initialized',
      'server/discover',
      'tools/list',
      'prompts/list',
      'resources/templates/list',
      'logging/setLevel',
      'ping',
    ];
    const message = fc.constantFrom(...methods).chain((method) =>
      fc.record({
        jsonrpc: usually(fc.constant('2.0')),
        id:
          method === 'notifications/initialized'
            ? rarely(fc.integer())
            : usually(fc.oneof(fc.integer(), fc.string(), fc.double())),
        method: fc.constant(method),
        params: params(method),
        extra: rarely(json),
      }),
    );
    const specType: Record<string, SpecTypeName> = {
      initialize: 'InitializeRequest',
      'notifications/initialized': 'InitializedNotification',
      'server/discover': 'DiscoverRequest',
      'tools/list': 'ListToolsRequest',
      'prompts/list': 'ListPromptsRequest',
      'resources/templates/list': 'ListResourceTemplatesRequest',
      'logging/setLevel': 'SetLevelRequest',
      ping: 'PingRequest',
    };
    const accepted = new Map<string, number>();
    fc.assert(
      fc.property(message, (candidate) => {
        const text = JSON.stringify(candidate);
        const recognized = recognizeOpening(text);
        if (!recognized) return;
        accepted.set(recognized.method, (accepted.get(recognized.method) ?? 0) + 1);
        // What the stdio transport parses: the line, not the object (undefined members vanish).
        const parsed = JSON.parse(text);
        expect(isSpecType.JSONRPCMessage(parsed)).toBe(true);
        const { jsonrpc: _jsonrpc, id: _id, ...body } = parsed;
        expect(isSpecType[specType[recognized.method]](body)).toBe(true);
      }),
      // Seeded: the count below is a threshold on random draws, and an unseeded run fell exactly on it (20) once in CI.
      { numRuns: 20_000, seed: 20261126 },
    );
    // Every kind must be accepted often enough for this test to mean something.
    process.stdout.write(`[opening] accepted per method: ${JSON.stringify(Object.fromEntries(accepted))}\n`);
    for (const method of methods) expect(accepted.get(method)).toBeGreaterThan(20);
  });
});

describe('OpeningResponder', () => {
  const answers = (ui: string) => ({
    initialize: {
      '2025-06-18': { protocolVersion: '2025-06-18', ui },
      '2024-11-05': { protocolVersion: '2024-11-05', ui },
    },
    initializeOtherwise: { protocolVersion: '2025-11-25', ui },
    legacy: {
      'tools/list': { tools: ['legacy', ui] },
      'prompts/list': { prompts: [] },
      'resources/templates/list': { resourceTemplates: [] },
    },
    modern: {
      'server/discover': { supportedVersions: ['2026-07-28'], ui },
      'tools/list': { tools: ['modern', ui] },
      'prompts/list': { prompts: [], resultType: 'complete' },
      'resources/templates/list': { resourceTemplates: [], resultType: 'complete' },
    },
  });
  const published: PublishedOpening = { ...answers('none'), withUi: answers('apps') };

  function responder() {
    const written: unknown[] = [];
    const handOffs: HandOff[] = [];
    const afterWrite: Array<() => void> = [];
    const r = new OpeningResponder(published, {
      write: (text, done) => {
        written.push(JSON.parse(text));
        afterWrite.push(done);
      },
      handOff: (state) => handOffs.push(state),
    });
    const settle = async () => {
      afterWrite.splice(0).forEach((done) => done());
      await new Promise(setImmediate);
    };
    return { r, written, handOffs, settle };
  }

  it('answers the older revisions: initialize for the version asked (or the latest), setLevel, ping, the lists', async () => {
    const { r, written, handOffs, settle } = responder();
    r.push(
      bytes(
        initialize(1, '2024-11-05'),
        initialized,
        request(2, 'logging/setLevel', { level: 'debug' }),
        request(3, 'ping'),
        request(4, 'prompts/list'),
      ),
    );
    expect(written).toEqual([
      { result: { protocolVersion: '2024-11-05', ui: 'none' }, jsonrpc: '2.0', id: 1 },
      { result: {}, jsonrpc: '2.0', id: 2 },
      { result: {}, jsonrpc: '2.0', id: 3 },
      { result: { prompts: [] }, jsonrpc: '2.0', id: 4 },
    ]);
    await settle();
    expect(handOffs).toEqual([]);

    const other = responder();
    other.r.push(bytes(initialize('a', '2001-01-01')));
    expect(other.written).toEqual([{ result: { protocolVersion: '2025-11-25', ui: 'none' }, jsonrpc: '2.0', id: 'a' }]);
  });

  it("answers a client that declares MCP Apps from the answers to such a client, by its initialize or each request's envelope", () => {
    const legacy = responder();
    legacy.r.push(bytes(initialize(1, '2025-06-18', uiCapabilities), initialized, request(2, 'tools/list')));
    expect(legacy.written).toEqual([
      { result: { protocolVersion: '2025-06-18', ui: 'apps' }, jsonrpc: '2.0', id: 1 },
      { result: { tools: ['legacy', 'apps'] }, jsonrpc: '2.0', id: 2 },
    ]);
    const current = responder();
    current.r.push(bytes(modernWithUi(1, 'server/discover'), modern(2, 'prompts/list'), modernWithUi(3, 'tools/list')));
    expect(current.written).toEqual([
      { result: { supportedVersions: ['2026-07-28'], ui: 'apps' }, jsonrpc: '2.0', id: 1 },
      { result: { prompts: [], resultType: 'complete' }, jsonrpc: '2.0', id: 2 },
      { result: { tools: ['modern', 'apps'] }, jsonrpc: '2.0', id: 3 },
    ]);
  });

  it('answers 2026-07-28: discover, then the lists in that form', () => {
    const { r, written } = responder();
    r.push(bytes(modern(1, 'server/discover'), modern(2, 'prompts/list')));
    expect(written).toEqual([
      { result: { supportedVersions: ['2026-07-28'], ui: 'none' }, jsonrpc: '2.0', id: 1 },
      { result: { prompts: [], resultType: 'complete' }, jsonrpc: '2.0', id: 2 },
    ]);
  });

  it('reads messages split anywhere, and hands everything over, with the answered ids, once tools/list is written', async () => {
    const { r, written, handOffs, settle } = responder();
    const input = bytes(initialize(1), initialized, request(2, 'tools/list', { _meta: { progressToken: 0 } }));
    for (let i = 0; i < input.length; i++) r.push(input.subarray(i, i + 1));
    expect(written).toHaveLength(2);
    expect(handOffs).toEqual([]);
    await settle();
    expect(handOffs).toEqual([{ received: input, answered: [1, 2] }]);
  });

  it.each([
    [
      'a message it does not answer',
      [initialize(1), request(3, 'tools/call', { name: 'get-review' }), request(4, 'tools/list')],
      1,
    ],
    ['a second initialize', [initialize(1), initialize(2)], 1],
    ['a list before any opening', [request(1, 'tools/list')], 0],
    ['an initialize after a 2026-07-28 request', [modern(1, 'prompts/list'), initialize(2)], 1],
    ['a 2026-07-28 list after initialize', [initialize(1), modern(2, 'prompts/list')], 1],
    ['a ping with no opening', [request(1, 'ping')], 0],
  ])('hands over at %s, with everything it received', (_, messages, answeredCount) => {
    const { r, written, handOffs } = responder();
    const input = Buffer.concat([bytes(...messages), Buffer.from('{"partial"')]);
    r.push(input);
    expect(written).toHaveLength(answeredCount);
    expect(handOffs).toHaveLength(1);
    expect(handOffs[0].received).toEqual(input);
    expect(handOffs[0].answered).toHaveLength(answeredCount);
  });

  it('hands over as soon as a line grows longer than any opening message', () => {
    const { r, handOffs } = responder();
    const start = Buffer.from(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"content":"' +
        'x'.repeat(MAX_OPENING_LINE_BYTES),
    );
    r.push(start);
    expect(handOffs).toEqual([{ received: start, answered: [] }]);
  });
});

describe('the built server: the entry answers as the full server does, and nothing twice', () => {
  const lists = (era: 'legacy' | 'modern', first: number) =>
    ['tools/list', 'prompts/list', 'resources/templates/list'].map((method, i) =>
      era === 'modern' ? modern(first + i, method) : request(first + i, method),
    );

  /** The answers to `messages`, from a fresh built server, after `before` (answered, and left out). */
  async function answers(messages: object[], before: object[] = []): Promise<Reply[]> {
    const server = new BuiltServer();
    try {
      server.send(...before, ...messages);
      const requests = [...before, ...messages].filter((message) => 'id' in message).length;
      const replies = await server.waitForReplies(requests);
      const ids = new Set(
        messages.filter((message) => 'id' in message).map((message) => (message as { id: number }).id),
      );
      return replies.filter((reply) => ids.has(reply.id as number)).sort((a, b) => Number(a.id) - Number(b.id));
    } finally {
      await server.endInput();
    }
  }

  it.each(
    [...SUPPORTED_PROTOCOL_VERSIONS, '2099-01-01'].flatMap((version) => [
      [version, {}],
      [version, uiCapabilities],
    ]),
  )('initialize at %s declaring %j, and the lists', async (version, capabilities) => {
    const opening = [
      initialize(1, version, capabilities),
      initialized,
      request(2, 'logging/setLevel', { level: 'debug' }),
      ...lists('legacy', 3),
    ];
    // A ping first is not an opening message: the entry hands over at once, and the full server answers all.
    expect(await answers(opening)).toEqual(await answers(opening, [request(100, 'ping')]));
  });

  it.each([
    ['', modern],
    [', from a client that renders MCP Apps', modernWithUi],
  ])('server/discover and the lists in 2026-07-28%s', async (_, form) => {
    const opening = [
      form(1, 'server/discover'),
      ...['tools/list', 'prompts/list', 'resources/templates/list'].map((method, i) => form(2 + i, method)),
    ];
    // resources/list asks the window: the entry leaves it, and all after it, to the full server.
    expect(await answers(opening)).toEqual(await answers(opening, [modern(100, 'resources/list')]));
  });

  it('answers each request once across the hand-over, even with an answered id used again', async () => {
    const server = new BuiltServer();
    const call = request(3, 'tools/call', { name: 'get-review', arguments: {} });
    server.send(
      initialize(1),
      initialized,
      request(2, 'tools/list'),
      call,
      request(1, 'ping'),
      request(4, 'tools/list'),
    );
    const replies = await server.waitForReplies(5);
    // Answered after anything sent again for those five: the server reads its input in order.
    server.send(request(5, 'ping'));
    await until(() => replies.some((reply) => reply.id === 5), 'the answer to a ping sent after them');
    expect(replies).toHaveLength(6);
    const byId = (id: number) => replies.filter((reply) => reply.id === id);
    expect(byId(1).map((reply) => reply.result)).toEqual([
      expect.objectContaining({ serverInfo: expect.anything() }),
      {},
    ]);
    expect(byId(2)[0].result).toEqual(byId(4)[0].result);
    expect((byId(3)[0] as Reply<ToolText>).result!.content[0].text).toMatch(/No VS Code window/);
    expect(await server.endInput()).toBe(0);
  });
});
