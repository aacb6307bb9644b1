// Entry point of `node dist/mcp-server.js`: an MCP server on stdio, or with a command as its first
// argument the command line (cli.ts). It only turns on Node's compile cache and loads the rest,
// dist/mcp-server-full.js (fullServer.ts): the cache covers what is loaded after it is turned on,
// so from Node 22.1 on a start after the first reads the SDK's compiled code from disk instead of
// compiling it again (compileCache.ts says where the cache lives). Process lifetime lives here:
// the server exits cleanly when stdin closes or a signal arrives.

import * as path from 'path';
import { isCliInvocation } from './cliCommand';
import { enableOwnCompileCache } from './compileCache';
import type * as FullServer from './fullServer';
import { stderrLog } from './log';

/** The name scripts/build.mjs gives the rest of the server, beside this file in dist/. */
const FULL_SERVER_FILE = 'mcp-server-full.js';

enableOwnCompileCache();
// Through this file's own directory, never the working directory: the server starts the same from
// any folder and through ~/.redline/mcp-server.js, which `require`s this entry by its absolute path.
const full = require(path.join(__dirname, FULL_SERVER_FILE)) as typeof FullServer;

if (isCliInvocation(process.argv.slice(2))) runCommandLine();
else serve();

function serve(): void {
  const server = full.serveMcp();
  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    stderrLog('shutdown', { reason });
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

function runCommandLine(): void {
  full.runCli({
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
