// Everything the MCP server and the command line do, loaded by the entry (index.ts) once it has
// answered the client's opening. serveMcp() serves MCP on stdio through the SDK's serveStdio,
// which answers both protocol eras and builds one server (server.ts) for the era the client opens
// with; the bridge to VS Code is shared by whichever it builds.

import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as path from 'path';
import type { Readable, Writable } from 'stream';
import { DisposableStore, toDisposable } from '../../shared/lifecycle';
import { Logger, type LogSink } from '../../shared/logger';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from '../../shared/protocol';
import { REDLINE_VERSION } from '../../shared/version';
import { VIEW_FILE, viewFileReader } from './appView/reviewViewResource';
import { ClientName } from './clientName';
import { IpcClient } from './ipcClient';
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
  dispose(): Promise<void>;
}

/**
 * Serves until disposed. `sink` is where the log goes (stderr); a 2025-era client that sets a level
 * is sent the same entries (protocolLog.ts).
 */
export function serveMcp(sink: LogSink, opening: HandOff = { received: Buffer.alloc(0), answered: [] }): RunningServer {
  // Set for a 2025-era client, which may ask for MCP log messages; 2026-07-28 has none.
  let protocolLog: ProtocolLog | undefined;
  const log = new Logger(
    {
      write: (entry) => {
        sink.write(entry);
        protocolLog?.write(entry);
      },
    },
    'mcp-server',
  );
  const roots = new ClientRoots();
  const locator = new WindowLocator({
    envPath: process.env[IPC_PATH_ENV] || undefined,
    envToken: process.env[IPC_TOKEN_ENV] || undefined,
    workspace: workspaceChoice(process.argv.slice(2), process.env),
    cwd: process.cwd(),
    roots: () => roots.get(),
  });
  const running = new DisposableStore();
  const bridge = running.add(
    new IpcClient({
      locate: (dead) => locator.candidates(dead),
      timeouts: timeoutsFromConfig(log.for('config')),
      clientInfo: { name: 'redline-mcp', version: REDLINE_VERSION },
      log: log.for('bridge'),
    }),
  );
  const clientName = new ClientName();
  const viewHtml = viewFileReader(path.join(__dirname, VIEW_FILE));
  const transportLog = log.for('transport');
  const served = serveStdio(
    ({ era }) => {
      const server = createServer(
        { bridge, cwd: process.cwd(), clientName: () => clientName.get(), log, viewHtml },
        era,
      );
      protocolLog = era === 'legacy' ? new ProtocolLog(server.server) : undefined;
      if (era === 'legacy') roots.watch(server);
      return server;
    },
    {
      // The project's own line reader: linear in a message's size, and it answers a message over the
      // limit with an error instead of closing (stdioTransport.ts).
      transport: new AfterOpeningTransport(process.stdin, process.stdout, {
        observe: (message) => clientName.observe(message),
        opening,
      }),
      onerror: (error) => transportLog.warn('transport-error', { error }),
    },
  );
  // Released first: what the server still has in flight is cancelled, not failed by a closed bridge.
  running.add(toDisposable(() => served.close()));
  return running;
}

/**
 * The stdio transport, reading first what the entry received, and not sending again the answers the
 * entry gave: the server answers the replayed opening as it would have answered the client.
 */
class AfterOpeningTransport extends LineStdioTransport {
  private readonly unsent: RequestId[];

  constructor(
    stdin: Readable,
    stdout: Writable,
    { observe, opening }: { observe: (message: JSONRPCMessage) => void; opening: HandOff },
  ) {
    super(stdin, stdout, { observe, alreadyRead: opening.received });
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

/** REDLINE_TIMEOUT_MS and `--timeout`: what cannot be used is logged and left out. */
function timeoutsFromConfig(log: Logger): Timeouts {
  const { timeouts, problems } = parseTimeouts(process.env[TIMEOUT_ENV] || undefined, process.argv.slice(2));
  for (const problem of problems) log.warn('invalid-timeout', { problem });
  if (timeouts.all !== undefined || Object.keys(timeouts.byMethod ?? {}).length > 0)
    log.debug('timeouts', { ...timeouts });
  return timeouts;
}
