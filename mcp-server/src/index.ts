// Entry point of `node dist/mcp-server.js`: stdio transport, the bridge from the environment,
// and a clean exit when stdin closes or a signal arrives.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from '../../shared/protocol';
import { REDLINE_VERSION } from '../../shared/version';
import { IpcClient } from './ipcClient';
import { stderrLog } from './log';
import { createServer } from './server';

const MAX_STDIN_MESSAGE_BYTES = 64 * 1024 * 1024;

function timeoutFromEnv(): number | undefined {
  const raw = process.env[TIMEOUT_ENV];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  stderrLog('invalid-timeout', { [TIMEOUT_ENV]: raw, using: 'per-method defaults' });
  return undefined;
}

async function main(): Promise<void> {
  const bridge = new IpcClient({
    socketPath: process.env[IPC_PATH_ENV],
    token: process.env[IPC_TOKEN_ENV],
    timeoutMs: timeoutFromEnv(),
    clientInfo: { name: 'redline-mcp', version: REDLINE_VERSION },
    log: stderrLog,
  });
  const server = createServer({ bridge, cwd: process.cwd() });
  // The SDK's default stdin buffer is 10 MiB in all, too small for a 10 MiB review plus its
  // JSON escaping; past it the transport closes without a word.
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_STDIN_MESSAGE_BYTES });
  server.server.onerror = (error) => stderrLog('transport-error', { error: String(error) });

  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    stderrLog('shutdown', { reason });
    bridge.dispose();
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await server.connect(transport);
  stderrLog('started', { version: REDLINE_VERSION, connected: Boolean(process.env[IPC_PATH_ENV]) });
}

main().catch((error) => {
  stderrLog('fatal', { error: String(error) });
  process.exit(1);
});
