// The "Redline" output's line per request: the correlation id the MCP server logs for the same call,
// the method, the assistant, how it ended and how long it took, and nothing of what it carried.

import { silentLogger } from '../../shared/logger';
import { ErrorCode, IpcError, type RequestMessage } from '../../shared/protocol';
import { allOf, RequestLogLines, requestLine } from '../../extension/src/activity/requestLogLines';
import type { ObservedRequest, RequestHandlers } from '../../extension/src/ipc/requestContract';
import { RequestRunner } from '../../extension/src/ipc/requestRunner';
import { Logger, type LogEntry, type LogLevel } from '../../shared/logger';
import { until } from '../support/until';

const observed = (fields: Partial<ObservedRequest> = {}): ObservedRequest => ({
  connectionId: 3,
  id: '6f1c2b7e-55aa-4c1e-9d0e-3b1f2a4c5d6e',
  method: 'present-review',
  client: 'Claude Code',
  receivedAt: 0,
  ...fields,
});

describe('requestLine', () => {
  it('says the id, method, assistant, connection, outcome and duration in one line', () => {
    expect(requestLine(observed(), { status: 'ok', durationMs: 41.6 })).toBe(
      'request 6f1c2b7e-55aa-4c1e-9d0e-3b1f2a4c5d6e present-review from "Claude Code" (connection 3): ok in 42 ms',
    );
  });

  it('names the error code, and leaves out an assistant that was not named', () => {
    const line = requestLine(observed({ method: 'get-selection', client: undefined }), {
      status: 'error',
      durationMs: 10_001,
      error: { code: ErrorCode.Timeout, message: 'VS Code did not finish get-selection within 10000 ms.' },
    });
    expect(line).toBe(
      'request 6f1c2b7e-55aa-4c1e-9d0e-3b1f2a4c5d6e get-selection (connection 3): error 4004 (Timeout) in 10001 ms',
    );
    expect(
      requestLine(observed(), {
        status: 'cancelled',
        durationMs: 5,
        error: { code: ErrorCode.Cancelled, message: 'x' },
      }),
    ).toMatch(/: cancelled 4003 \(Cancelled\) in 5 ms$/);
    expect(requestLine(observed(), { status: 'error', durationMs: 1, error: { code: 99, message: 'x' } })).toMatch(
      /error 99 \(unknown code\)/,
    );
  });

  it('keeps a hostile peer to one short line: control characters, quotes and huge strings', () => {
    const line = requestLine(
      observed({ id: 'a\nb', method: `x\u202e${'m'.repeat(10_000)}`, client: 'evil"\r\nINFO forged line' }),
      { status: 'ok', durationMs: -3 },
    );
    expect(line).not.toMatch(/[\r\n\u202e]/);
    expect(line.length).toBeLessThan(500);
    expect(line).toContain('from "evil\\"  INFO forged line"');
    expect(line).toMatch(/in 0 ms$/);
  });
});

describe('RequestLogLines on the request runner', () => {
  it('writes exactly one line per request once it settles, with the id it was sent with and none of its content', async () => {
    const written: Array<[LogLevel, string]> = [];
    const lines = new RequestLogLines(
      new Logger({ write: ({ level, message }) => written.push([level, message]) }, 'activity'),
    );
    const handlers = {
      'present-review': () => ({
        revision: 1,
        sections: [],
        sectionCount: 0,
        references: { total: 0, resolved: 0, broken: [] },
        findings: [],
      }),
      'open-location': () => {
        throw new IpcError(ErrorCode.NotFound, 'Cannot open secret/path.ts: no such file');
      },
    } as unknown as RequestHandlers;
    const runner = new RequestRunner(
      { connectionId: 9, handlers, maxInFlight: 4, maxQueued: 4, log: silentLogger, observer: lines },
      () => undefined,
    );
    const send = (id: string, method: string, params: unknown): RequestMessage => ({
      type: 'request',
      id,
      method,
      params,
      client: 'codex',
    });
    runner.submit(send('id-present', 'present-review', { content: 'TOP SECRET REVIEW TEXT' }));
    runner.submit(send('id-open', 'open-location', { reference: 'secret/path.ts:1' }));
    expect(written).toEqual([]);
    await until(() => written.length >= 2, 'both requests to settle');
    expect(written).toEqual([
      [
        'debug',
        expect.stringMatching(/^request id-present present-review from "codex" \(connection 9\): ok in \d+ ms$/),
      ],
      [
        'warn',
        expect.stringMatching(
          /^request id-open open-location from "codex" \(connection 9\): error 4008 \(NotFound\) in \d+ ms$/,
        ),
      ],
    ]);
    expect(written.join('\n')).not.toMatch(/SECRET|secret/);
  });
});

describe('allOf', () => {
  it('tells every observer, even after one of them throws, and logs the failure as an error', () => {
    const errors: LogEntry[] = [];
    const seen: string[] = [];
    const observer = allOf(
      [
        {
          onRequestSettled: () => {
            throw new Error('broken view');
          },
        },
        { onRequestStarted: () => seen.push('started'), onRequestSettled: () => seen.push('settled') },
      ],
      new Logger({ write: (entry) => errors.push(entry) }, 'activity'),
    );
    observer.onRequestStarted!(observed());
    observer.onRequestSettled!(observed(), { status: 'ok', durationMs: 1 });
    expect(seen).toEqual(['started', 'settled']);
    expect(errors).toEqual([
      {
        level: 'error',
        component: 'activity',
        message: 'A request observer failed',
        fields: { error: new Error('broken view') },
      },
    ]);
  });
});
