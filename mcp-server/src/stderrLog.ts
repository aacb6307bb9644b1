// The MCP server's log sink. stdout belongs to JSON-RPC, so each entry is one JSON line on stderr.
// Assistants show a server's stderr as errors (Claude Code records every line), so debug entries,
// the routine ones, are written only with REDLINE_LOG=debug or `--log debug`.

import { LOG_ENV } from '../../shared/environment';
import { errorMessage, isAtLeast, type LogEntry, type LogLevel, type LogSink } from '../../shared/logger';

/** What every line says it came from. */
export const LOG_SOURCE = 'redline-mcp';

/** REDLINE_LOG=debug, or `--log debug` / `--log=debug` among the server's arguments. */
export function wantsDebugLog(env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  const flag = argv.findIndex((arg) => arg === '--log' || arg.startsWith('--log='));
  const fromArgs =
    flag === -1 ? undefined : argv[flag].startsWith('--log=') ? argv[flag].slice('--log='.length) : argv[flag + 1];
  return (fromArgs ?? env[LOG_ENV]) === 'debug';
}

/** The entry as its line: `time`, `source`, `level`, `component`, `event` (the message), then the fields. */
export function logLine({ level, component, message, fields }: LogEntry, time = new Date()): string {
  const line = { time: time.toISOString(), source: LOG_SOURCE, level, component, event: message, ...fields };
  // An Error has no enumerable members: it is written as its message.
  return JSON.stringify(line, (_key, value: unknown) => (value instanceof Error ? errorMessage(value) : value)) + '\n';
}

/** Writes the entries at `threshold` or above, one line each. */
export function stderrSink(
  threshold: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): LogSink {
  return {
    write(entry) {
      if (isAtLeast(entry.level, threshold)) write(logLine(entry));
    },
  };
}

/** The sink this process's arguments and environment ask for: info, or debug when asked. */
export function processStderrSink(): LogSink {
  return stderrSink(wantsDebugLog(process.env, process.argv.slice(2)) ? 'debug' : 'info');
}
