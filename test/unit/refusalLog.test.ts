import { RefusalLog } from '../../extension/src/ipc/refusalLog';

describe('RefusalLog', () => {
  it('logs a kind once per interval, then says how many it left out', () => {
    let now = 0;
    const lines: Array<Record<string, unknown> | undefined> = [];
    const log = new RefusalLog(
      (_event, fields) => lines.push(fields),
      10_000,
      () => now,
    );
    for (let i = 0; i < 1000; i++) log.refused('flood');
    log.refused('timeout');
    expect(lines).toEqual([{ kind: 'flood' }, { kind: 'timeout' }]);
    now = 10_000;
    log.refused('flood', { connection: 7 });
    expect(lines[2]).toEqual({ kind: 'flood', connection: 7, suppressedSinceLast: 999 });
    now = 25_000;
    log.refused('flood');
    expect(lines[3]).toEqual({ kind: 'flood' });
  });
});
