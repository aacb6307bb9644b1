// A second client implementation: the official Python MCP SDK (pinned in test/python/
// requirements.txt, installed into .cache/python-mcp/ on the first run) drives the built server
// over stdio against the stand-in window: initialize at every protocol version that client
// speaks, a plain session's tool calls, and the high-level Client, which opens with
// server/discover and so speaks 2026-07-28 with Redline.

import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type Tool } from '@modelcontextprotocol/server';
import {
  driveWithPython,
  installPythonMcp,
  INSTALL_TIMEOUT_MS,
  type DriverReport,
  type ToolCallReport,
} from '../python/pythonDriver';
import { MCP_SERVER, assertBuilt, connectMcp, hostEnv, startHost, type Host } from './harness';

const CLIENT_NAME = 'redline-python-test';
/** The whole Python run: twelve servers started one after another, with room for a slow machine. */
const DRIVE_TIMEOUT_SECONDS = 180;
const REVIEW = [
  '# Python client review',
  '',
  '- **bug**: src/example.ts:42 returns the wrong line.',
  '- nit: src/example.ts:10 could have a better name.',
  '',
  'The helper that was in src/gone.ts:3 is gone.',
].join('\n');

/** The TypeScript SDK server's rule (Server._oninitialize): the version asked for if it has it, else its latest. */
const negotiatedBySdk = (requested: string) =>
  SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;

/** Runs `check`, naming the protocol version in its failure. */
function atVersion(version: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof Error) error.message = `At protocol version ${version}: ${error.message}`;
    throw error;
  }
}

describe('the built MCP server, driven by the official Python MCP SDK', () => {
  let host: Host;
  let report: DriverReport;

  beforeAll(
    async () => {
      assertBuilt();
      const { python } = await installPythonMcp();
      host = await startHost();
      report = await driveWithPython(python, {
        server: { command: process.execPath, args: [MCP_SERVER], env: hostEnv(host), cwd: host.workspace },
        clientName: CLIENT_NAME,
        calls: [
          { name: 'present-review', arguments: { content: REVIEW, title: 'From Python' } },
          { name: 'get-review' },
          { name: 'get-selection' },
          { name: 'open-location', arguments: { reference: 'src/example.ts:42' } },
          { name: 'get-diagnostics' },
          { name: 'list-open-editors' },
          { name: 'get-workspace-folders' },
          { name: 'get-review-feedback' },
          { name: 'await-review-feedback', arguments: { timeoutSeconds: 1 } },
        ],
        autoCalls: [{ name: 'get-review' }],
        timeoutSeconds: DRIVE_TIMEOUT_SECONDS,
      });
    },
    INSTALL_TIMEOUT_MS + (DRIVE_TIMEOUT_SECONDS + 60) * 1000,
  );
  afterAll(async () => {
    await host?.stop();
  });

  const call = (calls: ToolCallReport[], name: string) => {
    const found = calls.find((c) => c.name === name);
    if (!found) throw new Error(`no ${name} call in the report: ${JSON.stringify(calls.map((c) => c.name))}`);
    return found;
  };

  it('initializes at every protocol version the Python SDK supports, negotiating as the SDK server does', () => {
    expect(report.versions.map((v) => v.requested)).toEqual(report.sdk.supportedProtocolVersions);
    expect(report.versions.length).toBeGreaterThanOrEqual(4);
    const latest = report.versions.find((v) => v.requested === LATEST_PROTOCOL_VERSION)!;
    for (const { requested, negotiated, initialize, toolsList, sent } of report.versions) {
      atVersion(requested, () => {
        expect(negotiated).toBe(negotiatedBySdk(requested));
        expect(sent.map((line) => JSON.parse(line).method)).toEqual([
          'initialize',
          'notifications/initialized',
          'tools/list',
        ]);
        // Whatever the version, the same server and the same tools.
        expect(initialize.result.serverInfo).toEqual(latest.initialize.result.serverInfo);
        expect(toolsList.result).toEqual(latest.toolsList.result);
      });
    }
    // And ClientSession.initialize() as it is, with the capabilities its callbacks announce.
    expect(JSON.parse(report.plain.sent[0]).params.capabilities).toEqual({
      sampling: {},
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
    });
  });

  it('tells the Python client what it tells the TypeScript SDK client', async () => {
    const reference = await connectMcp(hostEnv(host), host.workspace, 'redline-ts-reference', [], 'legacy');
    try {
      const latest = report.versions.find((v) => v.requested === LATEST_PROTOCOL_VERSION)!;
      const { serverInfo, capabilities, instructions } = latest.initialize.result;
      expect({ serverInfo, capabilities, instructions }).toEqual({
        serverInfo: reference.client.getServerVersion(),
        capabilities: reference.client.getServerCapabilities(),
        instructions: reference.client.getInstructions(),
      });
      const shape = (tools: readonly Tool[]) =>
        tools.map(({ name, inputSchema, outputSchema, annotations }) => ({
          name,
          inputSchema,
          outputSchema,
          annotations,
        }));
      expect(shape(latest.toolsList.result.tools)).toEqual(shape((await reference.client.listTools()).tools));
    } finally {
      await reference.close();
    }
  });

  it("lists the tools with output schemas, and every result passed the Python client's check against them", () => {
    expect(report.plain.negotiated).toBe(negotiatedBySdk(report.sdk.latestHandshakeVersion));
    expect(report.plain.tools.map((tool) => tool.name).sort()).toEqual(report.plain.calls.map((c) => c.name).sort());
    for (const tool of report.plain.tools)
      expect({ name: tool.name, hasOutputSchema: typeof tool.outputSchema }).toEqual({
        name: tool.name,
        hasOutputSchema: 'object',
      });
    for (const result of report.plain.calls) {
      expect({ name: result.name, isError: result.isError, validated: result.validatedAgainstOutputSchema }).toEqual({
        name: result.name,
        isError: false,
        validated: true,
      });
    }
    expect(host.editor.opened.map((o) => o.reference)).toEqual(['src/example.ts:42']);
  });

  it("presents a review the window keeps under the Python client's name, and reads it back", () => {
    const presented = call(report.plain.calls, 'present-review').structuredContent!;
    expect(presented).toMatchObject({
      revision: 1,
      title: 'From Python',
      references: { total: 3, resolved: 2, broken: [{ reference: 'src/gone.ts:3', line: 6 }] },
    });
    expect((presented.findings as Array<{ severity: string }>).map((f) => f.severity)).toEqual(['bug', 'nit']);

    // The window got it, as this client's review: the entry passed the client's name on to the SDK server.
    const review = host.reviews.all.find((r) => r.label === CLIENT_NAME);
    expect(review?.store.current).toMatchObject({
      revision: 1,
      title: 'From Python',
      markdown: REVIEW,
      assistant: CLIENT_NAME,
      cwd: host.workspace,
    });

    const read = call(report.plain.calls, 'get-review').structuredContent!;
    expect(read).toMatchObject({ revision: 1, title: 'From Python', markdown: REVIEW });
    expect(read.findings).toEqual(presented.findings);
  });

  it("connects with the SDK's high-level Client in 2026-07-28: server/discover, and no initialize", () => {
    const { auto } = report;
    expect(auto.methods[0]).toBe('server/discover');
    expect(auto.methods).not.toContain('initialize');
    expect(auto.discover.result.supportedVersions).toContain('2026-07-28');
    expect(auto.negotiated).toBe('2026-07-28');
    // The client's name travels in each request's envelope: the same review as the plain session's.
    expect(call(auto.calls, 'get-review').structuredContent).toMatchObject({ revision: 1, markdown: REVIEW });
  });
});
