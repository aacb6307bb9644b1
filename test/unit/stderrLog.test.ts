// The MCP server's stderr is quiet by default: assistants show it as errors.

import { Logger } from '../../shared/logger';
import { logLine, stderrSink, wantsDebugLog } from '../../mcp-server/src/stderrLog';

describe('debug logging on stderr', () => {
  it('is on with REDLINE_LOG=debug or --log debug, the argument winning', () => {
    expect(wantsDebugLog({}, [])).toBe(false);
    expect(wantsDebugLog({ REDLINE_LOG: 'debug' }, [])).toBe(true);
    expect(wantsDebugLog({ REDLINE_LOG: 'info' }, [])).toBe(false);
    expect(wantsDebugLog({}, ['--workspace', '/w', '--log', 'debug'])).toBe(true);
    expect(wantsDebugLog({}, ['--log=debug'])).toBe(true);
    expect(wantsDebugLog({ REDLINE_LOG: 'debug' }, ['--log', 'quiet'])).toBe(false);
    expect(wantsDebugLog({}, ['--log'])).toBe(false);
  });
});

describe('the stderr sink', () => {
  it('writes one JSON line per entry at the threshold or above, and none below it', () => {
    const lines: string[] = [];
    const log = new Logger(
      stderrSink('info', (line) => lines.push(line)),
      'bridge',
    );
    log.debug('request', { id: 'a' });
    log.info('started');
    log.warn('busy', { tool: 'get-selection', inFlight: 64 });
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: expect.any(String), source: 'redline-mcp', level: 'info', component: 'bridge', event: 'started' },
      {
        time: expect.any(String),
        source: 'redline-mcp',
        level: 'warn',
        component: 'bridge',
        event: 'busy',
        tool: 'get-selection',
        inFlight: 64,
      },
    ]);
  });

  it('keeps the fields right after the event, as readers match them, and writes an error as its message', () => {
    const line = logLine(
      { level: 'warn', component: 'transport', message: 'transport-error', fields: { error: new Error('EPIPE') } },
      new Date('2026-01-02T03:04:05.000Z'),
    );
    expect(line).toBe(
      '{"time":"2026-01-02T03:04:05.000Z","source":"redline-mcp","level":"warn","component":"transport",' +
        '"event":"transport-error","error":"EPIPE"}\n',
    );
  });
});
