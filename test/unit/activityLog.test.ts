// The Activity view's log of recent calls: newest first, bounded, updated in place as a call
// settles, and holding nothing from the socket beyond a short, single-line copy.

import * as v8 from 'v8';
import * as vm from 'vm';
import { ACTIVITY_CAPACITY, ActivityLog, MAX_ERROR_CHARS, clampText } from '../../extension/src/activity/activityLog';
import type { ObservedRequest } from '../../extension/src/ipc/requestContract';
import { MAX_ASSISTANT_CHARS } from '../../shared/protocol';

let serial = 0;
function request(overrides: Partial<ObservedRequest> = {}): ObservedRequest {
  serial++;
  return {
    connectionId: 1,
    id: `id-${serial}`,
    method: 'get-review',
    client: 'Claude Code',
    receivedAt: 1_700_000_000_000 + serial,
    ...overrides,
  };
}

describe('ActivityLog', () => {
  it('lists a call as running when it arrives, then with its outcome, newest first', () => {
    const log = new ActivityLog();
    const changes = jest.fn();
    log.onDidChange(changes);
    const first = request({ method: 'present-review' });
    const second = request({ method: 'get-selection', client: undefined });
    log.onRequestStarted(first);
    log.onRequestStarted(second);
    expect(log.entries().map((e) => [e.method, e.status])).toEqual([
      ['get-selection', 'running'],
      ['present-review', 'running'],
    ]);
    log.onRequestSettled(first, { status: 'ok', durationMs: 12.5 });
    log.onRequestSettled(second, { status: 'error', durationMs: 3, error: { code: 4008, message: 'no such file' } });
    const [selection, review] = log.entries();
    expect(review).toMatchObject({
      id: first.id,
      method: 'present-review',
      client: 'Claude Code',
      status: 'ok',
      durationMs: 12.5,
      startedAt: first.receivedAt,
    });
    expect(review.error).toBeUndefined();
    expect(selection).toMatchObject({
      id: second.id,
      client: undefined,
      status: 'error',
      durationMs: 3,
      error: { code: 4008, message: 'no such file' },
    });
    expect(selection.seq).toBeGreaterThan(review.seq);
    expect(changes).toHaveBeenCalledTimes(4);
  });

  it('keeps the last `capacity` calls and nothing of the ones it dropped', () => {
    const log = new ActivityLog(3);
    const requests = Array.from({ length: 5 }, () => request());
    for (const r of requests) log.onRequestStarted(r);
    expect(log.size).toBe(3);
    expect(log.entries().map((e) => e.id)).toEqual([requests[4].id, requests[3].id, requests[2].id]);
    // The settling of a dropped call changes nothing and adds nothing.
    const changes = jest.fn();
    log.onDidChange(changes);
    log.onRequestSettled(requests[0], { status: 'ok', durationMs: 1 });
    expect(log.size).toBe(3);
    expect(changes).not.toHaveBeenCalled();
    expect(log.entries().every((e) => e.status === 'running')).toBe(true);
  });

  it('holds at most 200 calls by default, however many arrive', () => {
    const log = new ActivityLog();
    expect(log.capacity).toBe(ACTIVITY_CAPACITY);
    expect(ACTIVITY_CAPACITY).toBe(200);
    for (let i = 0; i < 10_000; i++) {
      const r = request();
      log.onRequestStarted(r);
      if (i % 2 === 0) log.onRequestSettled(r, { status: 'ok', durationMs: 1 });
    }
    expect(log.size).toBe(200);
    // Internal bookkeeping of running calls is bounded too: the ones still "running" are in view.
    expect((log as unknown as { running: Map<unknown, unknown> }).running.size).toBeLessThanOrEqual(200);
  });

  it('tells two calls with the same id apart: each settles its own entry', () => {
    const log = new ActivityLog();
    const running = request({ id: 'same' });
    const duplicate = request({ id: 'same' });
    log.onRequestStarted(running);
    log.onRequestStarted(duplicate);
    log.onRequestSettled(duplicate, {
      status: 'error',
      durationMs: 0,
      error: { code: -32600, message: 'already in use' },
    });
    log.onRequestSettled(running, { status: 'ok', durationMs: 5 });
    expect(log.entries().map((e) => e.status)).toEqual(['error', 'ok']);
  });

  it('clear empties it; calls still running when it was cleared do not come back', () => {
    const log = new ActivityLog();
    const r = request();
    log.onRequestStarted(r);
    log.clear();
    log.onRequestSettled(r, { status: 'ok', durationMs: 1 });
    expect(log.entries()).toEqual([]);
  });

  it('cuts names, methods, ids and errors to a bounded single line', () => {
    const log = new ActivityLog();
    const r = request({
      client: `Evil\nAssistant\u202e${'x'.repeat(10_000)}`,
      method: 'm'.repeat(5_000),
      id: 'i'.repeat(5_000),
    });
    log.onRequestStarted(r);
    log.onRequestSettled(r, {
      status: 'error',
      durationMs: 1,
      error: { code: 1, message: `line one\r\nline two ${'e'.repeat(100_000)}` },
    });
    const [entry] = log.entries();
    expect(entry.client!.length).toBeLessThanOrEqual(MAX_ASSISTANT_CHARS);
    expect(entry.client!.startsWith('Evil Assistant ')).toBe(true);
    expect(entry.method.length).toBe(100);
    expect(entry.id.length).toBe(64);
    expect(entry.error!.message.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(entry.error!.message.startsWith('line one  line two')).toBe(true);
  });

  it('treats a name of only spaces or control characters as no name', () => {
    const log = new ActivityLog();
    log.onRequestStarted(request({ client: ' \n\t ' }));
    expect(log.entries()[0].client).toBeUndefined();
  });

  it('an entry keeps no reference to the huge string it was cut from', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const log = new ActivityLog(40);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      // 1 MiB each, distinct, as JSON.parse would leave them: flat strings that a slice would point into.
      const huge = JSON.parse(JSON.stringify(`${i} ${'x'.repeat(1024 * 1024)}`)) as string;
      const r = request({ client: huge });
      log.onRequestStarted(r);
      log.onRequestSettled(r, { status: 'error', durationMs: 1, error: { code: 1, message: huge } });
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // 40 MiB went in; what is kept is 40 × (200 + 500) characters and the entries around them.
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    expect(log.size).toBe(40);
  });
});

describe('clampText', () => {
  it('keeps ordinary names, including non-ASCII ones, as they are', () => {
    expect(clampText('Claude Code', 200)).toBe('Claude Code');
    expect(clampText('Gemini CLI ✨ 日本語', 200)).toBe('Gemini CLI ✨ 日本語');
  });

  it('replaces control and bidirectional-override characters, and trims', () => {
    expect(clampText(' a\u0000b\u001bc\u007fd\u202ee\u2066f\n', 200)).toBe('a b c d e f');
  });

  it('cuts to the limit', () => {
    expect(clampText('abcdef', 3)).toBe('abc');
  });
});
