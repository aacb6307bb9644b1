// Every error path of every published tool, through the built server, with three clients: the
// TypeScript SDK 1.x Client (which checks structured content against the tool's output schema),
// the v2 Client (in 2026-07-28), and the official Python SDK. Each must hand the caller the tool's
// own reason, never a schema complaint. Below the SDKs, every result the server wrote is checked
// with an independent JSON Schema validator: a success against the tool's declared output schema,
// a failure for having no structured content (the contract in mcp-server/src/tools/resultHints.ts).
// One row per tool and path: adding a path is one line.

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { MAX_REVIEW_BYTES } from '../../shared/protocol';
import { REVIEW_BUDGET } from '../../shared/reviewBudget';
import { installPythonMcp, INSTALL_TIMEOUT_MS } from '../python/pythonDriver';
import { PUBLISHED_TOOLS } from './builtServer';
import { assertBuilt } from './harness';
import { pythonClient, sdkV1, sdkV2, type ConformanceClient, type Outcome, type Wire } from './conformance/clients';
import {
  ClientServers,
  SITUATIONS,
  TIMEOUT_MS,
  Windows,
  type Situation,
  type SituationName,
} from './conformance/situations';

/** A row: what the caller must be handed. `error`: a failed result whose first text matches; `code`: the ErrorCode name it says. */
type Expected = { error: RegExp; code?: string } | 'success' | 'cancelled';

interface Row {
  readonly tool: string;
  readonly situation: SituationName;
  readonly path: string;
  readonly args: Record<string, unknown>;
  readonly expected: Expected;
}

/** Arguments each tool accepts, for the paths that are about the window rather than the arguments. */
const VALID_ARGS: Record<string, Record<string, unknown>> = {
  'present-review': { content: '# Conformance\n\n- **bug**: src/example.ts:3 is off by one' },
  'open-location': { reference: 'src/example.ts:42' },
  'await-review-feedback': { timeoutSeconds: 1 },
};
const validArgs = (tool: string) => VALID_ARGS[tool] ?? {};

const headings = (count: number) => '#\n'.repeat(count);
const HEADING_LIMIT = REVIEW_BUDGET.headings.limit;

/** A path every tool has: one row per published tool. */
function everyTool(situation: SituationName, expected: Expected): Row[] {
  return PUBLISHED_TOOLS.map((tool) => ({ tool, situation, path: situation, args: validArgs(tool), expected }));
}

function oneTool(
  tool: string,
  situation: SituationName,
  path: string,
  args: Record<string, unknown>,
  expected: Expected,
): Row {
  return { tool, situation, path, args, expected };
}

const invalid = (tool: string) => ({
  error: new RegExp(`^Input validation error: Invalid arguments for tool ${tool}:`),
});

const TABLE: Row[] = [
  ...everyTool('the window answers', 'success'),
  ...everyTool('no window', {
    error: /^No VS Code window with Redline is open on this machine\. Open the project in VS Code/,
    code: 'NotConfigured',
  }),
  ...everyTool('the window closed', {
    error: /^No VS Code window listens at .*closed\.sock any more/,
    code: 'NotConfigured',
  }),
  ...everyTool('a token the window refuses', { error: /token/i, code: 'Unauthorized' }),
  ...everyTool('timed out', {
    error: new RegExp(`^VS Code did not answer [a-z-]+ within ${TIMEOUT_MS} ms`),
    code: 'Timeout',
  }),
  ...everyTool('busy', {
    error: /^Redline is busy with 64 calls from this assistant, its limit; [a-z-]+ was not run\. Retry it/,
    code: 'Busy',
  }),
  ...everyTool('cancelled', 'cancelled'),
  ...everyTool('the window gone mid-call', {
    error: /^The connection to VS Code closed before it replied/,
    code: 'Disconnected',
  }),

  oneTool(
    'present-review',
    'the window answers',
    'refused by the budget',
    { content: headings(HEADING_LIMIT + 1) },
    {
      error: /^The review has about 50,001 headings; the limit is 50,000 .*so it was not shown\. Split it/,
      code: 'TooLarge',
    },
  ),
  oneTool(
    'present-review',
    'the window answers',
    'a review within the budget, to append to',
    { content: headings(HEADING_LIMIT * 0.6) },
    'success',
  ),
  oneTool(
    'present-review',
    'the window answers',
    'an append that puts the review over the budget',
    { content: headings(HEADING_LIMIT * 0.6), mode: 'append' },
    {
      error: /^This append would make the review hold about 60,000 headings/,
      code: 'TooLarge',
    },
  ),
  oneTool(
    'present-review',
    'the window answers',
    'over the size limit',
    { content: 'x'.repeat(MAX_REVIEW_BYTES + 1) },
    {
      error: /^Input validation error: Invalid arguments for tool present-review:.*10485760/s,
    },
  ),
  oneTool(
    'present-review',
    'the window answers',
    'update-section without a section',
    { content: 'x', mode: 'update-section' },
    {
      error: /mode "update-section" needs "section"/,
      code: 'InvalidParams',
    },
  ),
  oneTool(
    'present-review',
    'the window answers',
    'invalid arguments',
    { content: '# x', mode: 'sideways' },
    invalid('present-review'),
  ),
  oneTool(
    'open-location',
    'the window answers',
    'a file outside the workspace refused',
    { reference: '/outside/secret.txt:1' },
    {
      error: /^The user declined to open \/outside\/secret\.txt:1/,
      code: 'Refused',
    },
  ),
  oneTool(
    'open-location',
    'the window answers',
    'a file that does not exist',
    { reference: 'src/missing.ts:1' },
    { error: /no such file/, code: 'NotFound' },
  ),
  oneTool('open-location', 'the window answers', 'invalid arguments', { reference: '' }, invalid('open-location')),
  oneTool(
    'present-review',
    'the window answers',
    'only whitespace and a byte order mark',
    { content: '\uFEFF \n\t' },
    { error: /content holds only whitespace/ },
  ),
  oneTool(
    'get-review',
    'the window answers',
    'invalid arguments',
    { compareWithPrevious: 'yes' },
    invalid('get-review'),
  ),
  oneTool(
    'get-review',
    'the window answers',
    'a cursor it did not give',
    { cursor: 'yesterday' },
    { error: /^"yesterday" is not a cursor get-review gave/, code: 'InvalidParams' },
  ),
  oneTool(
    'get-review',
    'the window answers',
    'a cursor of another revision',
    { cursor: 'r999999.m0.f0' },
    { error: /^That cursor is for revision 999999 of your review/, code: 'InvalidParams' },
  ),
  oneTool(
    'get-review-feedback',
    'the window answers',
    'a bad cursor',
    { since: 'yesterday' },
    invalid('get-review-feedback'),
  ),
  oneTool(
    'await-review-feedback',
    'the window answers',
    'a bad cursor',
    { since: '-1', timeoutSeconds: 1 },
    invalid('await-review-feedback'),
  ),
  oneTool(
    'await-review-feedback',
    'the window answers',
    'invalid arguments',
    { timeoutSeconds: 0 },
    invalid('await-review-feedback'),
  ),
  oneTool(
    'get-diagnostics',
    'the window answers',
    'invalid arguments',
    { severity: 'fatal' },
    invalid('get-diagnostics'),
  ),
  oneTool(
    'get-diagnostics',
    'the window answers',
    'an argument it does not take',
    { line: 3 },
    invalid('get-diagnostics'),
  ),
];

/** What a failed call's second text says (resultHints.ts): its code, and whether the same call may pass again. */
const CODE_SENTENCE = /^Error code: (\w+)\. Calling again as it is (may work|will not help)/;
/** Nothing was wrong with these calls: made again, they may pass. */
const RETRYABLE = ['Busy', 'Timeout', 'Disconnected'];
const codeSentence = (code: string) =>
  RETRYABLE.includes(code)
    ? `Error code: ${code}. Calling again as it is may work.`
    : `Error code: ${code}. Calling again as it is will not help; do what the message says first.`;

function check(row: Row, outcome: Outcome): void {
  const { expected } = row;
  if (expected === 'cancelled') {
    expect(outcome).toEqual({ kind: 'cancelled' });
    return;
  }
  // The tool's result reached the caller: nothing was thrown instead (no -32602 schema complaint).
  expect(outcome).toEqual(expect.objectContaining({ kind: 'result', isError: expected !== 'success' }));
  if (outcome.kind !== 'result') return;
  if (expected === 'success') {
    expect(outcome.structuredContent).toEqual(expect.any(Object));
    return;
  }
  expect(outcome.structuredContent ?? undefined).toBeUndefined();
  expect(outcome.text[0]).toMatch(expected.error);
  if (expected.code) expect(outcome.text[1]).toBe(codeSentence(expected.code));
  else if (outcome.text.length > 1) expect(outcome.text[1]).toMatch(CODE_SENTENCE);
}

/**
 * Below the SDK: every tools/call reply the server wrote on this connection. A success's structured
 * content conforms to the output schema the server published in tools/list; a failure has none and
 * leads with its reason. No call was answered with a JSON-RPC error.
 */
function checkWire({ received, sentCalls }: Wire): string[] {
  const problems: string[] = [];
  const listed = received.find((message) => Array.isArray(message.result?.tools));
  if (!listed) return ['no tools/list reply was seen'];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validators = new Map<string, ValidateFunction>(
    listed.result!.tools!.map((tool) => [tool.name, ajv.compile(tool.outputSchema!)]),
  );
  for (const { id, name } of sentCalls) {
    const reply = received.find(
      (message) => message.id === id && (message.result !== undefined || message.error !== undefined),
    );
    if (!reply) continue; // A cancelled call: the server answers nothing, as MCP asks.
    if (reply.error) {
      problems.push(`${name} (id ${id}) was answered with JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
      continue;
    }
    const result = reply.result!;
    if (result.isError) {
      if (result.structuredContent !== undefined)
        problems.push(
          `${name} (id ${id}) failed with structured content ${JSON.stringify(result.structuredContent).slice(0, 200)}`,
        );
      if (result.content?.[0]?.type !== 'text' || !result.content[0].text)
        problems.push(`${name} (id ${id}) failed without a reason as its first text`);
    } else {
      const validate = validators.get(name)!;
      if (!validate(result.structuredContent))
        problems.push(
          `${name} (id ${id}) succeeded with structured content off its schema: ${ajv.errorsText(validate.errors)}`,
        );
    }
  }
  return problems;
}

const CLIENTS: Array<() => Promise<ConformanceClient>> = [
  async () => sdkV1,
  async () => sdkV2,
  async () => pythonClient((await installPythonMcp()).python),
];
const CLIENT_NAMES = ['SDK 1.x Client', 'SDK v2 Client', 'Python SDK'];
const BY_SITUATION = (Object.keys(SITUATIONS) as SituationName[]).map(
  (situation) => [situation, TABLE.filter((row) => row.situation === situation)] as const,
);

let windows: Windows;
beforeAll(async () => {
  assertBuilt();
  windows = await Windows.start();
});
afterAll(async () => windows?.stop());

describe.each(CLIENT_NAMES.map((name, index) => [name, index] as const))('through the %s', (_name, index) => {
  let servers: ClientServers;
  beforeAll(async () => {
    servers = new ClientServers(await CLIENTS[index](), windows);
  }, INSTALL_TIMEOUT_MS);
  afterAll(async () => {
    await servers?.close();
    await servers?.client.dispose();
  });

  it('lists every published tool, each with an output schema', async () => {
    const { tools } = await servers.connection('host');
    expect(tools.map((tool) => [tool.name, typeof tool.outputSchema]).sort()).toEqual(
      PUBLISHED_TOOLS.map((name) => [name, 'object']),
    );
  });

  describe.each(BY_SITUATION)('%s', (situation, rows) => {
    const spec: Situation = SITUATIONS[situation];
    const outcomes = new Map<Row, Promise<Outcome>>();
    const outcomeOf = (row: Row) => outcomes.get(row) ?? servers.call(spec, row.tool, row.args);
    beforeAll(async () => {
      if (!spec.together) return;
      await servers.connection(spec.server);
      for (const row of rows) outcomes.set(row, servers.call(spec, row.tool, row.args));
    });
    afterAll(async () => {
      // Whatever the window still holds is answered, and the calls that filled the limit must have succeeded.
      for (const filled of await servers.release()) expect(filled).toMatchObject({ kind: 'result', isError: false });
    });

    it.each(rows.map((row) => [row.tool, row.path, row] as const))('%s: %s', async (_tool, _path, row) => {
      check(row, await outcomeOf(row));
    });
  });

  it('wrote, below the SDK, only results that conform: successes to their output schema, failures without structured content', async () => {
    const connections = await servers.all();
    expect(connections.length).toBe(new Set(Object.values(SITUATIONS).map((s) => s.server)).size);
    const wires = await Promise.all(connections.map((connection) => connection.wire()));
    expect(wires.reduce((calls, wire) => calls + wire.sentCalls.length, 0)).toBeGreaterThanOrEqual(TABLE.length);
    expect(wires.flatMap(checkWire)).toEqual([]);
  });
});
