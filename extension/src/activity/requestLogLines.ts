// A log line for each request the window answered, refused or dropped: its id (the correlation id
// the MCP server's stderr log carries for the same call), its method, the assistant, how it ended
// and how long it took. Never its parameters or result, so no review text reaches the log.
// Kept apart from `vscode` so that the wording is tested without an editor.

import type { Logger } from '../../../shared/logger';
import { ErrorCode, MAX_ASSISTANT_CHARS } from '../../../shared/protocol';
import type { ObservedRequest, RequestObserver, RequestOutcome } from '../ipc/requestContract';
import { clampText, MAX_ID_CHARS, MAX_METHOD_CHARS } from './activityLog';

const CODE_NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** e.g. `request 1b4e…-uuid present-review from "Claude Code" (connection 2): ok in 42 ms`. */
export function requestLine(request: ObservedRequest, outcome: RequestOutcome): string {
  // Every string here came from the socket: cut, and stripped of what could break the line.
  const id = clampText(request.id, MAX_ID_CHARS);
  const method = clampText(request.method, MAX_METHOD_CHARS) || '(no method)';
  const client = request.client === undefined ? '' : clampText(request.client, MAX_ASSISTANT_CHARS);
  const from = client ? ` from ${JSON.stringify(client)}` : '';
  const code = outcome.error ? ` ${outcome.error.code} (${CODE_NAMES.get(outcome.error.code) ?? 'unknown code'})` : '';
  return `request ${id} ${method}${from} (connection ${request.connectionId}): ${outcome.status}${code} in ${Math.max(0, Math.round(outcome.durationMs))} ms`;
}

/** Logs a line per settled request: an error as a warning, an answer or a cancel (routine) at debug. */
export class RequestLogLines implements RequestObserver {
  constructor(private readonly log: Logger) {}

  onRequestSettled(request: ObservedRequest, outcome: RequestOutcome): void {
    const line = requestLine(request, outcome);
    if (outcome.status === 'error') this.log.warn(line);
    else this.log.debug(line);
  }
}

/** Tells each observer in turn; one that throws is logged and does not keep the others from hearing. */
export function allOf(observers: readonly RequestObserver[], log: Logger): RequestObserver {
  const tell = (notify: (observer: RequestObserver) => void) => {
    for (const observer of observers) {
      try {
        notify(observer);
      } catch (error) {
        log.error('A request observer failed', { error });
      }
    }
  };
  return {
    onRequestStarted: (request) => tell((observer) => observer.onRequestStarted?.(request)),
    onRequestSettled: (request, outcome) => tell((observer) => observer.onRequestSettled?.(request, outcome)),
  };
}
