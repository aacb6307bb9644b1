// Everything the MCP server and the command line do, loaded by the entry (index.ts) once Node's
// compile cache is on, and once the entry has answered the client's opening. serveMcp() serves
// MCP on stdio through the SDK's serveStdio, which answers both protocol eras: `server/discover`
// and the per-request envelope of 2026-07-28, and `initialize` for 2024-11-05 to 2025-11-25. It
// builds one server for the era the client opens with (server.ts); the bridge to VS Code is
// shared by whichever it builds.

import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Readable, Writable } from 'stream';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from '../../shared/protocol';
import { REDLINE_VERSION } from '../../shared/version';
import { ClientName } from './clientName';
import { IpcClient } from './ipcClient';
import { stderrLog } from './stderrLog';
import type { HandOff } from './opening/openingResponder';
import { ClientRoots } from './clientRoots';
import { ProtocolLog } from './protocolLog';
import { createServer } from './server';
import { LineStdioTransport } from './stdioTransport';
import { parseTimeouts, type Timeouts } from './toolTimeouts';
import { WindowLocator, workspaceChoice } from './windowLocator';

// The command line shares this bundle: it needs the same bridge.
export { runCli } from './cli';

export interface RunningServer {
  close(): Promise<void>;
}

export function serveMcp(opening: HandOff = { received: Buffer.alloc(0), answered: [] }): RunningServer {
  const roots = new ClientRoots();
  const locator = new WindowLocator({
    envPath: process.env[IPC_PATH_ENV] || undefined,
    envToken: process.env[IPC_TOKEN_ENV] || undefined,
    workspace: workspaceChoice(process.argv.slice(2), process.env),
    cwd: process.cwd(),
    roots: () => roots.get(),
  });
  // Set for a 2025-era client, which may ask for MCP log messages; 2026-07-28 has none.
  let protocolLog: ProtocolLog | undefined;
  const bridge = new IpcClient({
    locate: (dead) => locator.candidates(dead),
    timeouts: timeoutsFromConfig(),
    clientInfo: { name: 'redline-mcp', version: REDLINE_VERSION },
    log: (event, fields) => {
      stderrLog(event, fields);
      protocolLog?.log('debug', event, fields);
    },
  });
  const clientName = new ClientName();
  const served = serveStdio(
    ({ era }) => {
      const server = createServer({ bridge, cwd: process.cwd(), clientName: () => clientName.get() }, era);
      protocolLog = era === 'legacy' ? new ProtocolLog(server.server) : undefined;
      if (era === 'legacy') roots.watch(server);
      return server;
    },
    {
      // The project's own line reader: linear in a message's size, and it answers a message over the
      // limit with an error instead of closing (stdioTransport.ts).
      transport: new AfterOpeningTransport(
        process.stdin,
        process.stdout,
        (message) => clientName.observe(message),
        opening,
      ),
      onerror: (error) => stderrLog('transport-error', { error: String(error) }),
    },
  );
  return {
    // The server first: what it still has in flight is cancelled, not failed by a closed bridge.
    close: () => served.close().finally(() => bridge.dispose()),
  };
}

/**
 * The stdio transport, reading first what the entry received, and not sending again the answers the
 * entry gave: the server answers the replayed opening as a client would have had it answered.
 */
class AfterOpeningTransport extends LineStdioTransport {
  private readonly unsent: RequestId[];

  constructor(stdin: Readable, stdout: Writable, observe: (message: JSONRPCMessage) => void, opening: HandOff) {
    super(stdin, stdout, observe, opening.received);
    this.unsent = [...opening.answered];
  }

  override send(message: JSONRPCMessage): Promise<void> {
    // Each answered id once: a client may use an id again once it has its answer.
    const index = 'id' in message && !('method' in message) ? this.unsent.indexOf(message.id as RequestId) : -1;
    if (index === -1) return super.send(message);
    this.unsent.splice(index, 1);
    return Promise.resolve();
  }
}

/** REDLINE_TIMEOUT_MS and `--timeout`: what cannot be used is said on stderr and left out. */
function timeoutsFromConfig(): Timeouts {
  const { timeouts, problems } = parseTimeouts(process.env[TIMEOUT_ENV] || undefined, process.argv.slice(2));
  for (const problem of problems) stderrLog('invalid-timeout', { problem });
  if (timeouts.all !== undefined || Object.keys(timeouts.byMethod ?? {}).length > 0)
    stderrLog('timeouts', { ...timeouts });
  return timeouts;
}
