// Logs for the MCP server. stdout belongs to JSON-RPC, so every event is one JSON line on stderr:
// by default only those a user must act on. Assistants show a server's stderr as errors (Claude
// Code records every line in its MCP log), so routine events such as a start or a call's request
// and reply are written only with REDLINE_LOG=debug or `--log debug`.

import { LOG_ENV } from '../../shared/environment';

export type Log = (event: string, fields?: Record<string, unknown>) => void;

/** What happens in every session: worth a line only to someone debugging. */
const ROUTINE = new Set([
  'started',
  'connected',
  'request',
  'reply',
  'timeouts',
  'shutdown',
  // With no window open there is nothing to hear; a call made meanwhile says so itself.
  'subscription-reconnect-failed',
]);

/** REDLINE_LOG=debug, or `--log debug` / `--log=debug` among the server's arguments. */
export function wantsDebugLog(env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  const flag = argv.findIndex((arg) => arg === '--log' || arg.startsWith('--log='));
  const fromArgs =
    flag === -1 ? undefined : argv[flag].startsWith('--log=') ? argv[flag].slice('--log='.length) : argv[flag + 1];
  return (fromArgs ?? env[LOG_ENV]) === 'debug';
}

const debug = wantsDebugLog(process.env, process.argv.slice(2));

export const stderrLog: Log = (event, fields) => {
  if (!debug && ROUTINE.has(event)) return;
  process.stderr.write(
    JSON.stringify({ time: new Date().toISOString(), source: 'redline-mcp', event, ...fields }) + '\n',
  );
};
