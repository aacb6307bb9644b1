// The `client` field of a request, and the observer the window's Activity view hangs on the
// request dispatch: every request is reported once when it arrives and once when it ends, however it ends.

import { ClientMessage, ErrorCode, IpcError, MAX_ASSISTANT_CHARS, RequestMessage } from '../../shared/protocol';
import { Logger } from '../../shared/logger';
import type { ObservedRequest, RequestHandlers, RequestOutcome } from '../../extension/src/ipc/requestContract';
import { RequestRunner, type Reply } from '../../extension/src/ipc/requestRunner';
import { until } from '../support/until';

describe("the request envelope's client name", () => {
  const request = { type: 'request', id: 'r1', method: 'get-review', params: {} };

  it('is optional: requests from MCP servers that do not send it stay valid', () => {
    const parsed = ClientMessage.parse(request);
    expect(parsed).toEqual(request);
    expect((parsed as RequestMessage).client).toBeUndefined();
  });

  it('is kept as sent when it fits', () => {
    expect(RequestMessage.parse({ ...request, client: 'Claude Code' }).client).toBe('Claude Code');
  });

  it('is cut to MAX_ASSISTANT_CHARS rather than refused when longer', () => {
    const parsed = RequestMessage.parse({ ...request, client: 'x'.repeat(MAX_ASSISTANT_CHARS * 50) });
    expect(parsed.client).toBe('x'.repeat(MAX_ASSISTANT_CHARS));
  });

  it('is absent when empty or blank', () => {
    expect(RequestMessage.parse({ ...request, client: '' }).client).toBeUndefined();
    expect(RequestMessage.parse({ ...request, client: '   ' }).client).toBeUndefined();
  });

  it.each([
    ['a number', 42],
    ['an object', { name: 'Claude Code' }],
    ['an array', ['Claude Code']],
    ['null', null],
  ])('refuses the message when it is %s', (_what, client) => {
    const parsed = ClientMessage.safeParse({ ...request, client });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0].path).toEqual(['client']);
  });
});

type Seen = Array<['started', ObservedRequest] | ['settled', ObservedRequest, RequestOutcome]>;

function runner(
  handlers: Partial<RequestHandlers>,
  options: { maxInFlight?: number; maxQueued?: number; requestTimeoutMs?: number; throwing?: boolean } = {},
) {
  const seen: Seen = [];
  const replies: Array<[string, Reply]> = [];
  const logs: string[] = [];
  const all: RequestHandlers = {
    'present-review': () => ({
      revision: 1,
      sections: [],
      sectionCount: 0,
      references: { total: 0, resolved: 0, broken: [] },
      findings: [],
    }),
    'get-selection': () => ({ editor: null }),
    'open-location': () => ({ path: '/x', start: { line: 1, column: 1 }, end: { line: 1, column: 1 } }),
    'get-review': () => ({ revision: 0, markdown: '', sections: [], findings: [] }),
    'get-review-feedback': () => ({ cursor: '0', items: [] }),
    ...handlers,
  } as RequestHandlers;
  const run = new RequestRunner(
    {
      connectionId: 7,
      handlers: all,
      maxInFlight: options.maxInFlight ?? 8,
      maxQueued: options.maxQueued ?? 8,
      requestTimeoutMs: options.requestTimeoutMs,
      log: new Logger({ write: (entry) => logs.push(entry.message) }, 'ipc'),
      observer: {
        onRequestStarted: (r) => {
          seen.push(['started', r]);
          if (options.throwing) throw new Error('observer bug');
        },
        onRequestSettled: (r, outcome) => {
          seen.push(['settled', r, outcome]);
          if (options.throwing) throw new Error('observer bug');
        },
      },
    },
    (id, reply) => replies.push([id, reply]),
  );
  return { run, seen, replies, logs };
}

const message = (id: string, method: string, params: unknown = {}, client?: string): RequestMessage => ({
  type: 'request',
  id,
  method,
  params,
  client,
});
const settled = (seen: Seen) =>
  seen.filter((s): s is ['settled', ObservedRequest, RequestOutcome] => s[0] === 'settled');
/** A turn of the event loop: a handler that answers at once is replied to in microtasks, before it. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the request observer', () => {
  it('sees a request arrive and succeed, with its id, method, client, connection and duration', async () => {
    const { run, seen, replies } = runner({
      'get-selection': async () => (await new Promise((r) => setTimeout(r, 20)), { editor: null }),
    });
    const before = Date.now();
    run.submit(message('abc', 'get-selection', {}, 'Cursor'));
    expect(seen).toHaveLength(1);
    const [, observed] = seen[0];
    expect(observed).toEqual({
      connectionId: 7,
      id: 'abc',
      method: 'get-selection',
      client: 'Cursor',
      receivedAt: expect.any(Number),
    });
    expect(observed.receivedAt).toBeGreaterThanOrEqual(before);
    await until(() => replies.length > 0, 'the reply');
    expect(replies).toEqual([['abc', { result: { editor: null } }]]);
    const [[, same, outcome]] = settled(seen);
    expect(same).toBe(observed);
    expect(outcome.status).toBe('ok');
    expect(outcome.error).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(15);
  });

  it.each([
    ["a handler's error", message('e', 'open-location', { reference: 'a.ts:1' }), ErrorCode.NotFound, 'error'],
    ['an unknown method', message('u', 'launch-missiles'), ErrorCode.MethodNotFound, 'error'],
    ['invalid params', message('p', 'open-location', { reference: 42 }), ErrorCode.InvalidParams, 'error'],
  ] as const)('sees %s as an error, with its code and message', async (_what, request, code, status) => {
    const { run, seen, replies } = runner({
      'open-location': () => {
        throw new IpcError(ErrorCode.NotFound, 'Cannot open a.ts: no such file');
      },
    });
    run.submit(request);
    await tick();
    const [[, observed, outcome]] = settled(seen);
    expect(observed.id).toBe(request.id);
    expect(observed.method).toBe(request.method);
    expect(outcome).toMatchObject({ status, error: { code } });
    expect(outcome.error!.message).toBe((replies[0][1] as { error: { message: string } }).error.message);
  });

  it('sees a timeout as an error and a cancel as cancelled', async () => {
    const never = () => new Promise<never>(() => undefined);
    const { run, seen } = runner({ 'get-selection': never, 'get-review': never }, { requestTimeoutMs: 30 });
    run.submit(message('slow', 'get-selection'));
    run.submit(message('dropped', 'get-review'));
    run.cancel('dropped');
    await until(() => settled(seen).length === 2, 'both requests to end');
    const outcomes = Object.fromEntries(settled(seen).map(([, r, o]) => [r.id, o]));
    expect(outcomes.dropped).toMatchObject({ status: 'cancelled', error: { code: ErrorCode.Cancelled } });
    expect(outcomes.slow).toMatchObject({ status: 'error', error: { code: ErrorCode.Timeout } });
    expect(outcomes.slow.durationMs).toBeGreaterThanOrEqual(25);
  });

  it('sees queued, busy and duplicate requests end too, each once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { run, seen } = runner(
      { 'get-selection': async () => (await gate, { editor: null }) },
      { maxInFlight: 1, maxQueued: 1 },
    );
    run.submit(message('a', 'get-selection'));
    run.submit(message('b', 'get-selection')); // waits for a slot
    run.submit(message('c', 'get-selection')); // past the queue: busy
    run.submit(message('a', 'get-selection')); // queue full as well: busy, even though its id is in use
    run.cancel('b');
    release();
    await tick();
    const byOrder = settled(seen).map(([r, , o]) => [r, o.status, o.error?.code]);
    expect(byOrder).toEqual([
      ['settled', 'error', ErrorCode.Busy],
      ['settled', 'error', ErrorCode.Busy],
      ['settled', 'cancelled', ErrorCode.Cancelled],
      ['settled', 'ok', undefined],
    ]);
    expect(seen.filter((s) => s[0] === 'started')).toHaveLength(4);
  });

  it('sees the requests of a closed connection end as cancelled, without answering them', async () => {
    const never = () => new Promise<never>(() => undefined);
    const { run, seen, replies } = runner({ 'get-selection': never }, { maxInFlight: 1 });
    run.submit(message('running', 'get-selection'));
    run.submit(message('waiting', 'get-selection'));
    run.abortAll();
    expect(replies).toEqual([]);
    expect(settled(seen).map(([, r, o]) => [r.id, o.status, o.error?.code])).toEqual([
      ['running', 'cancelled', ErrorCode.Disconnected],
      ['waiting', 'cancelled', ErrorCode.Disconnected],
    ]);
  });

  it('an observer that throws is logged and changes nothing about the request', async () => {
    const { run, replies, logs } = runner({}, { throwing: true });
    run.submit(message('x', 'get-selection'));
    await tick();
    expect(replies).toEqual([['x', { result: { editor: null } }]]);
    expect(logs).toEqual(['observer-failed', 'observer-failed']);
  });
});
