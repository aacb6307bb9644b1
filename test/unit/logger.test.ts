import { formatFields, isAtLeast, Logger, type LogEntry } from '../../shared/logger';

describe('Logger', () => {
  it('writes each level with its component to the sink', () => {
    const entries: LogEntry[] = [];
    const log = new Logger({ write: (entry) => entries.push(entry) }, 'bridge');
    log.debug('connected', { client: 'claude-code' });
    log.for('store').warn('could not write', { file: 'current.json' });
    expect(entries).toEqual([
      { level: 'debug', component: 'bridge', message: 'connected', fields: { client: 'claude-code' } },
      { level: 'warn', component: 'store', message: 'could not write', fields: { file: 'current.json' } },
    ]);
  });

  it('formats fields as key=value, errors by their message, leaving out undefined', () => {
    expect(
      formatFields({ tool: 'present-review', ms: 12, error: new Error('EACCES'), skipped: undefined, at: [1, 2] }),
    ).toBe('tool=present-review ms=12 error=EACCES at=[1,2]');
    expect(formatFields(undefined)).toBe('');
  });

  it('orders levels from trace to error', () => {
    expect(isAtLeast('warn', 'info')).toBe(true);
    expect(isAtLeast('debug', 'info')).toBe(false);
    expect(isAtLeast('error', 'error')).toBe(true);
  });
});
