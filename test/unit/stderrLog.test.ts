// The MCP server's stderr is quiet by default: assistants show it as errors.

import { wantsDebugLog } from '../../mcp-server/src/stderrLog';

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
