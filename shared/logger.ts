// One way to log, on either side of the bridge. Components take a `Logger` named for them and
// never write to a channel, a console or stderr themselves; the sink decides where lines go (the
// window's output channel, the MCP server's stderr) and which levels are worth a line.

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Facts to go with a message, such as `{ tool, ms }`; an `error` field is shown by its message. */
export type LogFields = Readonly<Record<string, unknown>>;

export interface LogEntry {
  readonly level: LogLevel;
  readonly component: string;
  readonly message: string;
  readonly fields?: LogFields;
}

export interface LogSink {
  write(entry: LogEntry): void;
}

export class Logger {
  constructor(
    private readonly sink: LogSink,
    readonly component: string,
  ) {}

  /** A logger for another component that writes to the same place. */
  for(component: string): Logger {
    return new Logger(this.sink, component);
  }

  /** Every step of a flow, for someone tracing one request. */
  trace(message: string, fields?: LogFields): void {
    this.sink.write({ level: 'trace', component: this.component, message, fields });
  }

  /** What happens in every session (a connection, a request): worth a line only when debugging. */
  debug(message: string, fields?: LogFields): void {
    this.sink.write({ level: 'debug', component: this.component, message, fields });
  }

  info(message: string, fields?: LogFields): void {
    this.sink.write({ level: 'info', component: this.component, message, fields });
  }

  /** Something went wrong and was handled; the user may want to know why a thing is missing. */
  warn(message: string, fields?: LogFields): void {
    this.sink.write({ level: 'warn', component: this.component, message, fields });
  }

  /** Something failed that the user must act on. */
  error(message: string, fields?: LogFields): void {
    this.sink.write({ level: 'error', component: this.component, message, fields });
  }
}

/** Drops every line: for tests and for code run where nobody reads a log. */
export const silentLogger = new Logger({ write: () => {} }, 'silent');

/** A thrown value as one line of text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `key=value` pairs on one line, errors by their message, for sinks that write text. */
export function formatFields(fields: LogFields | undefined): string {
  if (!fields) return '';
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text =
      value instanceof Error ? errorMessage(value) : typeof value === 'string' ? value : JSON.stringify(value);
    pairs.push(`${key}=${text}`);
  }
  return pairs.join(' ');
}

/** Levels from the least to the most severe, to compare them. */
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

export function isAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
