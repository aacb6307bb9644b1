// Entry point of `node dist/mcp-server.js`. As an MCP server it answers the handshake itself
// (handshake.ts), then hands stdin to the full server (fullServer.ts, bundled on its own as
// dist/mcp-server-full.js), and exits cleanly when stdin closes or a signal arrives. It imports
// neither the SDK nor zod: loading them takes several times as long as starting Node, and an
// assistant waits for tools/list before it goes on. With a command as its first argument it is
// the command line (cli.ts) instead.

import { IPC_PATH_ENV } from '../../shared/environment';
import { REDLINE_VERSION } from '../../shared/version';
import { isCliInvocation } from './cliCommand';
import { loadFullServer, loadPublishedHandshake } from './entrySiblings';
import type * as FullServer from './fullServer';
import { HandshakeResponder, type HandOff } from './handshake';
import { stderrLog } from './log';

let fullServer: FullServer.RunningServer | undefined;

if (isCliInvocation(process.argv.slice(2))) runCommandLine();
else serve();

function serve(): void {
  const responder = new HandshakeResponder(loadPublishedHandshake(), {
    write: (line, written) => process.stdout.write(line, () => written()),
    handOff: (state) => {
      process.stdin.off('data', receive);
      handOff(state);
    },
  });
  const receive = (chunk: Buffer) => responder.push(chunk);
  process.stdin.on('data', receive);
  // The SDK's transport reports stdin errors the same way.
  process.stdin.on('error', (error) => stderrLog('transport-error', { error: String(error) }));
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  stderrLog('started', { version: REDLINE_VERSION, connected: Boolean(process.env[IPC_PATH_ENV]) });
}

function handOff(state: HandOff): void {
  try {
    fullServer = loadFullServer().startFullServer(state);
    fullServer.connected.catch(fatal);
  } catch (error) {
    fatal(error);
  }
}

function runCommandLine(): void {
  loadFullServer().runCli({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdin: process.stdin,
  }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`redline: ${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

function fatal(error: unknown): void {
  stderrLog('fatal', { error: String(error) });
  process.exit(1);
}

let closing = false;
function shutdown(reason: string): void {
  if (closing) return;
  closing = true;
  stderrLog('shutdown', { reason });
  void (fullServer?.close() ?? Promise.resolve()).finally(() => process.exit(0));
}
