// MCP's own logging (`logging/setLevel`, `notifications/message`): the entries the server writes to
// stderr, also sent to a client that asked for them. A client that never sets a level gets none,
// so assistants that do not show MCP logs are not sent two messages per tool call.

import type { Server, LoggingLevel } from '@modelcontextprotocol/server';
import { errorMessage, type LogEntry, type LogLevel, type LogSink } from '../../shared/logger';

/** MCP's levels, least severe first (the specification's order, from syslog). */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
const SEVERITY = new Map(LOG_LEVELS.map((level, index) => [level, index]));

/** MCP has no trace: a trace entry goes as debug. */
const MCP_LEVEL: Readonly<Record<LogLevel, LoggingLevel>> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warning',
  error: 'error',
};

export class ProtocolLog implements LogSink {
  private level: LoggingLevel | undefined;

  constructor(private readonly server: Server) {
    // Replaces the SDK's own handler, which sends everything until a level is set.
    server.setRequestHandler('logging/setLevel', (request) => {
      this.level = request.params.level;
      return {};
    });
  }

  write({ level, component, message, fields }: LogEntry): void {
    const mcpLevel = MCP_LEVEL[level];
    if (this.level === undefined || SEVERITY.get(mcpLevel)! < SEVERITY.get(this.level)!) return;
    const data: Record<string, unknown> = { event: message, component };
    for (const [key, value] of Object.entries(fields ?? {}))
      data[key] = value instanceof Error ? errorMessage(value) : value;
    this.server.sendLoggingMessage({ level: mcpLevel, logger: 'redline', data }).catch(() => undefined);
  }
}
