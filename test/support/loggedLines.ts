// A logger for tests that assert what was logged: each entry becomes one line, with its fields.

import { formatFields, Logger } from '../../shared/logger';

/** A logger that appends each entry to `lines` as `message key=value…`. */
export function logTo(lines: string[]): Logger {
  return new Logger(
    {
      write: ({ message, fields }) => {
        const facts = formatFields(fields);
        lines.push(facts ? `${message} ${facts}` : message);
      },
    },
    'test',
  );
}

/** A logger that writes each entry to stderr, for child processes and harnesses whose output a failing test shows. */
export function stderrLogger(component: string): Logger {
  return new Logger(
    {
      write: ({ level, message, fields }) => {
        const facts = formatFields(fields);
        process.stderr.write(`${component} ${level}: ${message}${facts ? ` ${facts}` : ''}\n`);
      },
    },
    component,
  );
}
