import {
  findCursorMcpApi,
  registerWithCursor,
  type CursorMcpApi,
} from '../../extension/src/assistants/cursorRegistration';
import type { StdioServerDefinition } from '../../extension/src/assistants/serverLaunch';
import { Logger, silentLogger, type LogEntry } from '../../shared/logger';

function fakeCursor() {
  const calls: Array<['register', unknown] | ['unregister', string]> = [];
  const api: CursorMcpApi = {
    registerServer: (config) => calls.push(['register', config]),
    unregisterServer: (name) => calls.push(['unregister', name]),
  };
  return { api, calls };
}

const definition = (token: string): StdioServerDefinition => ({
  label: 'Redline',
  command: 'node',
  args: ['/ext/dist/mcp-server.js'],
  env: { REDLINE_IPC_PATH: '/run/r.sock', REDLINE_IPC_TOKEN: token },
});

describe("registration with Cursor's agent", () => {
  it('is found only where vscode.cursor.mcp has both functions', () => {
    const { api } = fakeCursor();
    expect(findCursorMcpApi({ cursor: { mcp: api } })).toBe(api);
    expect(findCursorMcpApi({})).toBeUndefined();
    expect(findCursorMcpApi({ cursor: { mcp: { registerServer: () => undefined } } })).toBeUndefined();
  });

  it('registers once the bridge listens, again when the token changes, and unregisters on dispose', async () => {
    const { api, calls } = fakeCursor();
    let current: StdioServerDefinition | undefined;
    let fire = () => undefined as void;
    const registration = registerWithCursor(api, {
      definition: () => current,
      onDidChange: (listener) => {
        fire = listener;
        return {
          dispose: () => {
            fire = () => undefined;
          },
        };
      },
      log: silentLogger,
    });
    expect(calls).toEqual([]);
    current = definition('a'.repeat(32));
    fire();
    current = definition('b'.repeat(32));
    fire();
    expect(calls).toEqual([
      [
        'register',
        {
          name: 'redline',
          server: { command: 'node', args: ['/ext/dist/mcp-server.js'], env: definition('a'.repeat(32)).env },
        },
      ],
      [
        'register',
        {
          name: 'redline',
          server: { command: 'node', args: ['/ext/dist/mcp-server.js'], env: definition('b'.repeat(32)).env },
        },
      ],
    ]);
    await registration.dispose();
    fire();
    expect(calls.at(-1)).toEqual(['unregister', 'redline']);
    expect(calls).toHaveLength(3);
  });

  it('logs and carries on when Cursor throws', async () => {
    const logged: LogEntry[] = [];
    const api: CursorMcpApi = {
      registerServer: () => {
        throw new Error('no');
      },
      unregisterServer: () => undefined,
    };
    const registration = registerWithCursor(api, {
      definition: () => definition('c'.repeat(32)),
      onDidChange: () => ({ dispose: () => undefined }),
      log: new Logger({ write: (entry) => logged.push(entry) }, 'cursor'),
    });
    expect(logged).toEqual([
      {
        level: 'warn',
        component: 'cursor',
        message: 'Could not register the Redline MCP server with Cursor',
        fields: { error: new Error('no') },
      },
    ]);
    await registration.dispose();
  });
});
