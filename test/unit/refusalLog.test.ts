import { Logger, type LogEntry } from '../../shared/logger';
import { RefusalLog } from '../../extension/src/ipc/refusalLog';

describe('RefusalLog', () => {
  it('logs a kind once per interval, as a warning, then says how many it left out', () => {
    let now = 0;
    const entries: LogEntry[] = [];
    const log = new RefusalLog(new Logger({ write: (entry) => entries.push(entry) }, 'ipc'), 10_000, () => now);
    const lines = () => entries.map((entry) => entry.fields);
    for (let i = 0; i < 1000; i++) log.refused('flood');
    log.refused('timeout');
    expect(lines()).toEqual([{ kind: 'flood' }, { kind: 'timeout' }]);
    expect(entries.map((entry) => entry.level)).toEqual(['warn', 'warn']);
    now = 10_000;
    log.refused('flood', { connection: 7 });
    expect(lines()[2]).toEqual({ kind: 'flood', connection: 7, suppressedSinceLast: 999 });
    now = 25_000;
    log.refused('flood');
    expect(lines()[3]).toEqual({ kind: 'flood' });
  });
});
