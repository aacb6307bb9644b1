// Progress for one request, on both sides of the socket: the rate limit, the wire message, and the
// runner that sends a handler's progress only to a client that asked, and never after the reply;
// and commit(), past which a cancel no longer stops a request.

import { ErrorCode, ProgressMessage, RequestMessage, ServerMessage, type ProgressUpdate } from '../../shared/protocol';
import { Logger } from '../../shared/logger';
import { PROGRESS_INTERVAL_MS, ProgressThrottle } from '../../shared/progressThrottle';
import type { RequestContext, RequestHandlers } from '../../extension/src/ipc/requestContract';
import { RequestRunner, WINDOW_PROGRESS_INTERVAL_MS, type Reply } from '../../extension/src/ipc/requestRunner';

/** A throttle of 100 ms on a clock the test moves, with timers faked; `sent` is what went out. */
function throttleOnFakeClock() {
  jest.useFakeTimers();
  const clock = { now: 0 };
  const sent: number[] = [];
  const throttle = new ProgressThrottle<number>(
    (n) => sent.push(n),
    100,
    () => clock.now,
  );
  return { throttle, sent, clock };
}

describe('ProgressThrottle', () => {
  afterEach(() => jest.useRealTimers());

  it('sends the first update at once, then at most one per interval, the latest winning', () => {
    const { throttle, sent, clock } = throttleOnFakeClock();
    throttle.report(1);
    expect(sent).toEqual([1]);
    clock.now = 30;
    throttle.report(2);
    clock.now = 60;
    throttle.report(3);
    expect(sent).toEqual([1]);
    clock.now = 100;
    jest.advanceTimersByTime(100);
    expect(sent).toEqual([1, 3]);
    clock.now = 250;
    throttle.report(4);
    expect(sent).toEqual([1, 3, 4]);
  });

  it('sends at once when the slot is free, even if the timer of a waiting update has not fired (the thread was busy)', () => {
    const { throttle, sent, clock } = throttleOnFakeClock();
    throttle.report(1);
    clock.now = 10;
    throttle.report(2);
    // 2 s of synchronous work: no timer could run.
    clock.now = 2000;
    throttle.report(3);
    expect(sent).toEqual([1, 3]);
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual([1, 3]);
  });

  it('sendNow goes at once and replaces the update that waited; after close it sends nothing either', () => {
    const { throttle, sent, clock } = throttleOnFakeClock();
    throttle.report(1);
    clock.now = 10;
    throttle.report(2);
    throttle.sendNow(3);
    jest.advanceTimersByTime(500);
    expect(sent).toEqual([1, 3]);
    throttle.close();
    throttle.sendNow(4);
    expect(sent).toEqual([1, 3]);
  });

  it('sends nothing after close, not even the update that waited', () => {
    const { throttle, sent, clock } = throttleOnFakeClock();
    throttle.report(1);
    clock.now = 10;
    throttle.report(2);
    throttle.close();
    clock.now = 500;
    jest.advanceTimersByTime(500);
    throttle.report(3);
    expect(sent).toEqual([1]);
  });

  it('holds a burst of 10,000 updates over 1 s to about ten', () => {
    // Its own clock, faked: on a busy machine a real second may hold too few updates to fill the slots.
    jest.useFakeTimers();
    const sent: number[] = [];
    const throttle = new ProgressThrottle<number>((n) => sent.push(n));
    for (let i = 0; i < 10_000; i++) {
      throttle.report(i);
      if (i % 10 === 9) jest.advanceTimersByTime(1);
    }
    throttle.close();
    expect(PROGRESS_INTERVAL_MS).toBe(100);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.length).toBeLessThanOrEqual(11);
  });
});

describe('the progress message', () => {
  it('is a server message tied to a request id, and must make sense', () => {
    expect(
      ServerMessage.safeParse({ type: 'progress', id: 'r1', progress: 3, total: 10, message: 'rendering' }).success,
    ).toBe(true);
    expect(ServerMessage.safeParse({ type: 'progress', id: 'r1', progress: 3, message: 'no total' }).success).toBe(
      true,
    );
    for (const bad of [
      { type: 'progress', progress: 1, message: 'no id' },
      { type: 'progress', id: 'r1', progress: -1, message: 'negative' },
      { type: 'progress', id: 'r1', progress: 1, total: 0, message: 'zero total' },
      { type: 'progress', id: 'r1', progress: 1, message: 'x'.repeat(201) },
      { type: 'progress', id: 'r1', progress: '1', message: 'a string' },
    ]) {
      expect(ProgressMessage.safeParse(bad).success).toBe(false);
    }
  });

  it('is asked for with progress: true on the request, and a timeout in range rides along', () => {
    const request = { type: 'request', id: 'r1', method: 'present-review', params: {} };
    expect(RequestMessage.parse({ ...request, progress: true, timeoutMs: 120_000 })).toMatchObject({
      progress: true,
      timeoutMs: 120_000,
    });
    expect(RequestMessage.safeParse({ ...request, progress: 'yes' }).success).toBe(false);
    expect(RequestMessage.safeParse({ ...request, timeoutMs: 0 }).success).toBe(false);
    expect(RequestMessage.safeParse({ ...request, timeoutMs: 600_001 }).success).toBe(false);
  });
});

function runner(handlers: Partial<RequestHandlers>) {
  const sent: Array<['progress', string, ProgressUpdate] | ['reply', string, Reply]> = [];
  const logs: string[] = [];
  const run = new RequestRunner(
    {
      connectionId: 1,
      handlers: handlers as RequestHandlers,
      maxInFlight: 8,
      maxQueued: 8,
      log: new Logger({ write: (entry) => logs.push(entry.message) }, 'ipc'),
      sendProgress: (id, update) => sent.push(['progress', id, update]),
    },
    (id, reply) => sent.push(['reply', id, reply]),
  );
  return { run, sent, logs };
}

const request = (id: string, progress?: boolean): RequestMessage => ({
  type: 'request',
  id,
  method: 'get-selection',
  params: {},
  ...(progress ? { progress } : {}),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('progress from a handler', () => {
  // On a clock the test moves: on a busy machine the real time between two updates can be a whole slot.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());
  const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

  it('goes out only for a request that asked, rate-limited (40 a second to the MCP server), and never after its reply', async () => {
    let context!: RequestContext;
    let answer!: () => void;
    const { run, sent } = runner({
      'get-selection': (_params, c) => {
        context = c;
        return new Promise((resolve) => (answer = () => resolve({ editor: null })));
      },
    });
    run.submit(request('quiet'));
    context.progress({ progress: 1, total: 2, message: 'not asked' });
    answer();
    await elapse(0);
    expect(sent).toEqual([['reply', 'quiet', { result: { editor: null } }]]);
    sent.length = 0;

    run.submit(request('asked', true));
    for (let i = 0; i < 50; i++) context.progress({ progress: i, total: 100, message: `step ${i}` });
    await elapse(WINDOW_PROGRESS_INTERVAL_MS * 4);
    context.progress({ progress: 60, total: 100, message: 'in its own slot' });
    context.progress({ progress: 70, total: 100, message: 'waits for its slot' });
    answer();
    await elapse(WINDOW_PROGRESS_INTERVAL_MS * 4);
    context.progress({ progress: 99, total: 100, message: 'after the reply' });
    await elapse(WINDOW_PROGRESS_INTERVAL_MS * 4);
    expect(sent).toEqual([
      ['progress', 'asked', { progress: 0, total: 100, message: 'step 0' }],
      ['progress', 'asked', { progress: 49, total: 100, message: 'step 49' }],
      ['progress', 'asked', { progress: 60, total: 100, message: 'in its own slot' }],
      ['reply', 'asked', { result: { editor: null } }],
    ]);
  });

  it('sends the first update of a new step at once, even inside the interval', async () => {
    let context!: RequestContext;
    const { run, sent } = runner({ 'get-selection': (_params, c) => ((context = c), new Promise(() => undefined)) });
    run.submit(request('steps', true));
    context.progress({ progress: 1, total: 10, message: 'counting 1' });
    context.progress({ progress: 2, total: 10, message: 'counting 2' });
    context.progress({ progress: 3, total: 10, message: 'writing' }, { newStep: true });
    expect(sent.map(([, , update]) => (update as ProgressUpdate).message)).toEqual(['counting 1', 'writing']);
    run.abortAll();
  });

  it('drops a nonsensical update and cuts a long message, rather than sending what the client would refuse', async () => {
    let context!: RequestContext;
    const { run, sent } = runner({ 'get-selection': (_params, c) => ((context = c), new Promise(() => undefined)) });
    run.submit(request('r', true));
    context.progress({ progress: Number.NaN, message: 'NaN' });
    await elapse(WINDOW_PROGRESS_INTERVAL_MS * 3);
    context.progress({ progress: 1, total: 0, message: 'zero total' });
    await elapse(WINDOW_PROGRESS_INTERVAL_MS * 3);
    context.progress({ progress: 2, message: 'm'.repeat(1000) });
    expect(sent).toHaveLength(1);
    const [, , update] = sent[0] as ['progress', string, ProgressUpdate];
    expect(ProgressMessage.safeParse({ type: 'progress', id: 'r', ...update }).success).toBe(true);
    expect(update.message).toHaveLength(200);
    run.abortAll();
  });
});

describe('commit()', () => {
  it('before it, a cancel aborts the handler and is answered at once; after it, the request goes on to its real reply', async () => {
    const contexts: RequestContext[] = [];
    const answers: Array<() => void> = [];
    const { run, sent, logs } = runner({
      'get-selection': (_params, c) => {
        contexts.push(c);
        return new Promise((resolve) => answers.push(() => resolve({ editor: null })));
      },
    });
    run.submit(request('early'));
    run.cancel('early');
    expect(contexts[0].signal.aborted).toBe(true);
    expect(sent).toEqual([
      ['reply', 'early', { error: { code: ErrorCode.Cancelled, message: 'Cancelled by the client.' } }],
    ]);
    sent.length = 0;

    run.submit(request('late'));
    contexts[1].commit();
    run.cancel('late');
    expect(contexts[1].signal.aborted).toBe(false);
    expect(sent).toEqual([]);
    expect(logs).toContain('cancel-after-commit');
    answers[1]();
    await sleep(0);
    expect(sent).toEqual([['reply', 'late', { result: { editor: null } }]]);
  });
});
