// MCP's own logging (`logging/setLevel`, `notifications/message`): the events the server writes to
// stderr, also sent to a client that asked for them. A client that never sets a level gets none,
// so assistants that do not show MCP logs are not sent two messages per tool call.

import type { Server, LoggingLevel } from '@modelcontextprotocol/server';

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

export class ProtocolLog {
  private level: LoggingLevel | undefined;

  constructor(private readonly server: Server) {
    // Replaces the SDK's own handler, which sends everything until a level is set.
    server.setRequestHandler('logging/setLevel', (request) => {
      this.level = request.params.level;
      return {};
    });
  }

  log(level: LoggingLevel, event: string, fields: Record<string, unknown> = {}): void {
    if (this.level === undefined || SEVERITY.get(level)! < SEVERITY.get(this.level)!) return;
    this.server.sendLoggingMessage({ level, logger: 'redline', data: { event, ...fields } }).catch(() => undefined);
  }
}
