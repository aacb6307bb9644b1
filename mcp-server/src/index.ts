// Entry point of `node dist/mcp-server.js`: an MCP server on stdio, or with a command as its first
// argument the command line (cli.ts). It answers the client's opening from answers captured at
// build time (opening/openingResponder.ts) while the rest, which loads the SDK and zod, loads
// (fullServer.ts, with Node's compile cache on). It exits when stdin closes or a signal arrives.

import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import { Logger } from '../../shared/logger';
import { withoutControls } from '../../shared/plainText';
import { IPC_PATH_ENV } from '../../shared/environment';
import { REDLINE_VERSION } from '../../shared/version';
import { isCliInvocation } from './cliCommand';
import { enableOwnCompileCache } from './compileCache';
import type * as FullServer from './fullServer';
import { processStderrSink } from './stderrLog';
import { OpeningResponder, type HandOff, type PublishedOpening } from './opening/openingResponder';

/**
 * The names scripts/build.mjs gives the rest of the server and the captured answers, beside this
 * file in dist/. Found through this file's own directory, never the working directory: the server
 * starts the same from any folder and through ~/.redline/mcp-server.js, which `require`s this
 * entry by its absolute path.
 */
const FULL_SERVER_FILE = 'mcp-server-full.js';
const OPENING_FILE = 'mcp-server-opening.json';

let server: FullServer.RunningServer | undefined;
const sink = processStderrSink();
const log = new Logger(sink, 'mcp-server');

if (isCliInvocation(process.argv.slice(2))) runCommandLine();
else serve();

/** Loaded at run time, not bundled into this file: it is a bundle of its own, beside this one. */
function loadFullServer(): typeof FullServer {
  enableOwnCompileCache();
  return createRequire(__filename)(path.join(__dirname, FULL_SERVER_FILE)) as typeof FullServer;
}

function serve(): void {
  const published = JSON.parse(fs.readFileSync(path.join(__dirname, OPENING_FILE), 'utf8')) as PublishedOpening;
  const responder = new OpeningResponder(published, {
    write: (line, written) => process.stdout.write(line, () => written()),
    handOff: (opening) => {
      process.stdin.off('data', receive);
      startFullServer(opening);
    },
  });
  const receive = (chunk: Buffer) => responder.push(chunk);
  process.stdin.on('data', receive);
  // The full server's transport reports stdin errors the same way.
  process.stdin.on('error', (error) => log.for('transport').warn('transport-error', { error }));
  process.stdin.on('end', () => shutdown('stdin closed'));
  // A client that has closed its end of stdout (EPIPE) can be answered no more: the server ends, as
  // when stdin closes, instead of dying of an unhandled 'error' (or lingering, once the transport has it).
  process.stdout.on('error', (error: NodeJS.ErrnoException) =>
    shutdown(`stdout failed (${error.code ?? error.message})`),
  );
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  log.debug('started', { version: REDLINE_VERSION, connected: Boolean(process.env[IPC_PATH_ENV]) });
}

function startFullServer(opening: HandOff): void {
  try {
    server = loadFullServer().serveMcp(sink, opening);
  } catch (error) {
    log.error('fatal', { error });
    process.exit(1);
  }
}

function runCommandLine(): void {
  // A reader that stops early (`get-review | head`) closes the pipe: what is left unread is not
  // wanted, which is no failure of the command (as with cat or git).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
  loadFullServer()
    .runCli({
      argv: process.argv.slice(2),
      env: process.env,
      cwd: process.cwd(),
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stdin: process.stdin,
    })
    .then(
      (code) => (process.exitCode = code),
      (error: unknown) => {
        process.stderr.write(`redline: ${withoutControls(String(error))}\n`);
        process.exitCode = 1;
      },
    );
}

let closing = false;
function shutdown(reason: string): void {
  if (closing) return;
  closing = true;
  log.debug('shutdown', { reason });
  void (server?.dispose() ?? Promise.resolve()).finally(() => process.exit(0));
}
