// The full MCP server, started once the handshake is answered (handshake.ts): the SDK's McpServer
// with the tools, the bridge to VS Code, and the stdio transport reading stdin from where the
// entry stopped. Bundled on its own as dist/mcp-server-full.js, which the entry loads with
// `require` (entrySiblings.ts), so that the entry stays small.

import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'stream';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from '../../shared/protocol';
import { REDLINE_VERSION } from '../../shared/version';
import type { HandOff } from './handshake';
import { IpcClient } from './ipcClient';
import { stderrLog } from './log';
import { ProtocolLog } from './protocolLog';
import { createServer } from './server';
import { LineStdioTransport } from './stdioTransport';
import { parseTimeouts, type Timeouts } from './toolTimeouts';
import { WindowLocator, workspaceChoice } from './windowLocator';

// The command line shares this bundle: it needs the same bridge.
export { runCli } from './cli';

export interface RunningServer {
  /** Settles once the server listens; rejects when it cannot. */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

export function startFullServer(handOff: HandOff): RunningServer {
  const locator = new WindowLocator({
    envPath: process.env[IPC_PATH_ENV] || undefined,
    envToken: process.env[IPC_TOKEN_ENV] || undefined,
    workspace: workspaceChoice(process.argv.slice(2), process.env),
    cwd: process.cwd(),
  });
  const bridge = new IpcClient({
    locate: (dead) => locator.candidates(dead),
    timeouts: timeoutsFromConfig(),
    clientInfo: { name: 'redline-mcp', version: REDLINE_VERSION },
    // Every event on stderr, and at debug to a client that asked for MCP log messages.
    log: (event, fields) => {
      stderrLog(event, fields);
      protocolLog.log('debug', event, fields);
    },
  });
  const server = createServer({ bridge, cwd: process.cwd() });
  const protocolLog = new ProtocolLog(server.server);
  server.server.onerror = (error) => stderrLog('transport-error', { error: String(error) });

  // The transport reads what the entry received first, then the rest of stdin.
  const transport = new ResumedStdioTransport(process.stdin, process.stdout, [handOff.replay, handOff.rest], handOff.answeredInitialize);

  return {
    connected: server.connect(transport),
    close: () => {
      bridge.dispose();
      return server.close();
    },
  };
}

/** The stdio transport, except that it does not send again the initialize reply the entry sent. */
class ResumedStdioTransport extends LineStdioTransport {
  constructor(
    stdin: Readable,
    stdout: Writable,
    alreadyRead: readonly Buffer[],
    private answeredInitialize: RequestId | undefined,
  ) {
    super(stdin, stdout, alreadyRead);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if (this.answeredInitialize === undefined || !isInitializeResult(message, this.answeredInitialize)) return super.send(message);
    this.answeredInitialize = undefined;
    return Promise.resolve();
  }
}

/**
 * Whether `message` is the reply to that initialize request. The id alone is not enough: a client
 * may reuse it for a quick request (a ping) whose reply overtakes this one. Should the SDK refuse
 * the replayed request, which the entry accepted, that error still goes out.
 */
function isInitializeResult(message: JSONRPCMessage, id: RequestId): boolean {
  return 'result' in message && message.id === id && 'serverInfo' in message.result && 'protocolVersion' in message.result;
}

/** REDLINE_TIMEOUT_MS and `--timeout`: what cannot be used is said on stderr and left out. */
function timeoutsFromConfig(): Timeouts {
  const { timeouts, problems } = parseTimeouts(process.env[TIMEOUT_ENV] || undefined, process.argv.slice(2));
  for (const problem of problems) stderrLog('invalid-timeout', { problem });
  if (timeouts.all !== undefined || Object.keys(timeouts.byMethod ?? {}).length > 0) stderrLog('timeouts', { ...timeouts });
  return timeouts;
}
