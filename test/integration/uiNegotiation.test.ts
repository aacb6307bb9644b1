// The MCP Apps extension is offered only to a client that declares it, in both eras. A client that
// does not gets, byte for byte, what the server answered before the view existed: the same server
// built with the view's two modules left out (jest.isolateModules below) answers the same lines. A
// client that declares it is told the extension, finds present-review and get-review linked to the
// view, the view's own tools kept from the model, and reads the view.

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { once } from 'events';
import * as fs from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { silentLogger } from '../../shared/logger';
import { REVIEW_VIEW_URI, UI_EXTENSION, VIEW_MIME_TYPE } from '../../mcp-server/src/appView/uiExtension';
import { createServer } from '../../mcp-server/src/server';
import { LineStdioTransport } from '../../mcp-server/src/stdioTransport';
import { unreachableBridge } from '../../mcp-server/src/tools/toolContext';

type CreateServer = typeof createServer;
/** A server maker and the SDK's stdio entry from the same copy of the SDK (serveStdio checks the class). */
interface ServerKind {
  readonly create: CreateServer;
  readonly serve: typeof serveStdio;
}
const current: ServerKind = { create: createServer, serve: serveStdio };

const UI = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };
const VIEW_HTML = '<!doctype html><title>view</title>';
const CLIENT_INFO = { name: 'chat-host', version: '1' };
const APP_TOOLS = ['get-review-view', 'answer-finding', 'reveal-review'];

/** The server as it was before the view: neither the offer nor the view's tools. */
function serverWithoutTheView(): ServerKind {
  let kind: ServerKind | undefined;
  jest.isolateModules(() => {
    jest.doMock('../../mcp-server/src/appView/uiNegotiation', () => ({
      offerUiExtension: () => undefined,
      APP_ONLY: {},
    }));
    jest.doMock('../../mcp-server/src/tools/reviewViewTools', () => ({
      REVIEW_VIEW_TOOLS: [],
      registerReviewViewTools: () => undefined,
    }));
    kind = {
      create: (jest.requireActual('../../mcp-server/src/server') as { createServer: CreateServer }).createServer,
      serve: (jest.requireActual('@modelcontextprotocol/server/stdio') as { serveStdio: typeof serveStdio }).serveStdio,
    };
  });
  return kind!;
}

/** The lines `create`'s server writes in answer to `requests` (ids 1, 2, …), as written. */
async function answerLines(
  { create, serve }: ServerKind,
  requests: ReadonlyArray<{ method: string; params?: object }>,
) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const context = {
    bridge: unreachableBridge('No window in this test.'),
    cwd: process.cwd(),
    log: silentLogger,
    viewHtml: () => VIEW_HTML,
  };
  const served = serve(({ era }) => create(context, era), { transport: new LineStdioTransport(stdin, stdout) });
  const lines: string[] = [];
  let buffered = '';
  try {
    for (const [index, request] of requests.entries()) {
      stdin.write(JSON.stringify({ jsonrpc: '2.0', id: index + 1, ...request }) + '\n');
      while (!buffered.includes('\n')) buffered += String((await once(stdout, 'data'))[0]);
      const newline = buffered.indexOf('\n');
      lines.push(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
    return lines;
  } finally {
    await served.close();
  }
}

const initialize = (capabilities: object, protocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0]) => ({
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: CLIENT_INFO },
});
const modern = (method: string, capabilities: object, params: object = {}) => ({
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    },
  },
});
/** What a client asks in its opening and after it, of what this change could touch. */
const questions = {
  legacy: (capabilities: object) => [
    initialize(capabilities),
    { method: 'tools/list' },
    { method: 'prompts/list' },
    { method: 'resources/templates/list' },
    { method: 'tools/call', params: { name: 'answer-finding', arguments: { findingId: 'f1', state: 'resolved' } } },
    { method: 'resources/read', params: { uri: REVIEW_VIEW_URI } },
  ],
  modern: (capabilities: object) => [
    modern('server/discover', capabilities),
    modern('tools/list', capabilities),
    modern('prompts/list', capabilities),
    modern('resources/templates/list', capabilities),
    modern('tools/call', capabilities, { name: 'get-review-view', arguments: {} }),
    modern('resources/read', capabilities, { uri: REVIEW_VIEW_URI }),
  ],
};
const eras = ['legacy', 'modern'] as const;

describe('the MCP Apps extension, negotiated', () => {
  const before = serverWithoutTheView();

  it.each(eras)(
    'a %s client that does not declare it gets the answers of the server before the view, byte for byte',
    async (era) => {
      for (const capabilities of [{}, { roots: { listChanged: true } }, { extensions: { [UI_EXTENSION]: {} } }]) {
        const asked = questions[era](capabilities);
        expect(await answerLines(current, asked)).toEqual(await answerLines(before, asked));
      }
      // The server before the view really is the one without it: the comparison above means something.
      const withUi = await answerLines(current, questions[era](UI));
      expect(withUi).not.toEqual(await answerLines(before, questions[era](UI)));
    },
  );

  it.each(eras)(
    'a %s client that declares it is told so, and finds the view linked and its tools kept from the model',
    async (era) => {
      const [opening, tools, , , call, read] = (await answerLines(current, questions[era](UI))).map(
        (line) => JSON.parse(line) as { result?: Record<string, unknown>; error?: { message: string } },
      );
      expect((opening.result!.capabilities as { extensions: object }).extensions).toEqual({ [UI_EXTENSION]: {} });
      const listed = (tools.result!.tools as Array<{ name: string; _meta?: Record<string, unknown> }>).map(
        ({ name, _meta }) => [name, _meta] as const,
      );
      const link = { ui: { resourceUri: REVIEW_VIEW_URI }, 'ui/resourceUri': REVIEW_VIEW_URI };
      expect(listed.filter(([, meta]) => meta !== undefined)).toEqual([
        ['present-review', link],
        ['get-review', link],
        ['get-review-view', { ui: { visibility: ['app'] } }],
        ['answer-finding', { ui: { visibility: ['app'] } }],
        ['reveal-review', { ui: { visibility: ['app'] } }],
      ]);
      // The view's tools run (here they find no window, and say so as a tool's failure).
      expect(call.error).toBeUndefined();
      expect(call.result).toMatchObject({ isError: true });
      expect(read.result).toMatchObject({
        contents: [
          {
            uri: REVIEW_VIEW_URI,
            mimeType: VIEW_MIME_TYPE,
            text: VIEW_HTML,
            _meta: {
              ui: {
                csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
                prefersBorder: true,
              },
            },
          },
        ],
      });
    },
  );

  it.each(eras)('a %s client that declares it gets the same list but for the view, tool for tool', async (era) => {
    const [, plain] = await answerLines(current, questions[era]({}));
    const [, withUi] = await answerLines(current, questions[era](UI));
    const tools = (line: string) =>
      (JSON.parse(line) as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
    const withoutTheView = tools(withUi)
      .filter((tool) => !APP_TOOLS.includes(tool.name as string))
      .map(({ _meta, ...tool }) => tool);
    expect(withoutTheView).toEqual(tools(plain));
  });

  it('the built view is one document with nothing to fetch: no src, no href, no url()', () => {
    const html = fs.readFileSync(path.resolve(__dirname, '../../dist/review-view.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).not.toMatch(/url\(\s*['"]?(https?:|\/\/)/i);
    expect(html).not.toContain('/*SCRIPT*/');
    // The script cannot end its element early.
    expect(html.match(/<\/script/gi)).toHaveLength(1);
  });
});
