// What the status bar item and the Activity view say, as plain text: the bridge's state, and one
// tool call. Kept apart from `vscode` so that every wording is tested without an editor.

import type { ActivityEntry, ActivityStatus } from './activityLog';

export type BridgeState =
  | { readonly kind: 'starting' }
  | { readonly kind: 'listening'; readonly socketPath: string; readonly connected: number }
  | { readonly kind: 'failed'; readonly reason: string };

export interface BridgeStatusText {
  /** For the status bar: a codicon and a few words. */
  readonly text: string;
  readonly tooltip: string;
  /** What a screen reader says instead of the codicon's name. */
  readonly accessibleLabel: string;
  readonly isError: boolean;
}

const CLICK_FOR_ACTIVITY = 'Click to see the recent tool calls in Redline Activity.';

export function describeBridgeState(state: BridgeState): BridgeStatusText {
  switch (state.kind) {
    case 'starting':
      return {
        text: '$(loading~spin) Redline',
        tooltip: 'Redline is starting the bridge that assistants connect to.',
        accessibleLabel: 'Redline: starting',
        isError: false,
      };
    case 'listening': {
      const { connected, socketPath } = state;
      const who =
        connected === 0
          ? 'No assistant is connected to this window yet: start one in a terminal of this window, or see "Redline: Connect an Assistant…".'
          : `${connected} assistant${connected === 1 ? ' is' : 's are'} connected to this window (MCP servers that proved they hold its token).`;
      return {
        text: connected === 0 ? '$(plug) Redline: listening' : `$(plug) Redline: ${connected} connected`,
        tooltip: [who, `Socket: ${socketPath}`, '', CLICK_FOR_ACTIVITY].join('\n'),
        accessibleLabel:
          connected === 0
            ? 'Redline: listening, no assistant connected'
            : `Redline: ${plural(connected, 'assistant')} connected`,
        isError: false,
      };
    }
    case 'failed':
      return {
        text: '$(error) Redline: bridge failed',
        tooltip: [
          `Redline could not start its bridge, so no assistant can reach this window: ${state.reason}`,
          '',
          'The "Redline" output has the details; reloading the window tries again.',
        ].join('\n'),
        accessibleLabel: `Redline: the bridge failed: ${state.reason}`,
        isError: true,
      };
  }
}

export interface CallText {
  /** The tool's method. */
  readonly label: string;
  /** Who, how it went, how long, and the id's first characters (enough to grep a log for). */
  readonly description: string;
  readonly tooltip: string;
  readonly accessibleLabel: string;
}

const UNNAMED = 'unnamed assistant';
const STATUS_WORDS: Record<ActivityStatus, string> = {
  running: 'running',
  ok: 'ok',
  error: 'failed',
  cancelled: 'cancelled',
};

export function describeCall(entry: ActivityEntry): CallText {
  const client = entry.client ?? UNNAMED;
  const status = STATUS_WORDS[entry.status];
  const took = entry.durationMs === undefined ? undefined : formatDuration(entry.durationMs);
  const error = entry.error ? `${entry.error.message} (code ${entry.error.code})` : undefined;
  const description =
    [client, status, took, shortId(entry.id)].filter(Boolean).join(' · ') +
    (entry.error ? ` — ${entry.error.message}` : '');
  const tooltip = [
    `${entry.method}: ${status}${took ? ` in ${took}` : ''}`,
    `Assistant: ${client}`,
    `Started: ${new Date(entry.startedAt).toLocaleTimeString()} (connection ${entry.connectionId})`,
    ...(error ? [`Error: ${error}`] : []),
    `Correlation id: ${entry.id}`,
    'The assistant\'s MCP server logs this id on stderr, in its "request" and "reply" lines.',
  ].join('\n');
  return {
    label: entry.method,
    description,
    tooltip,
    accessibleLabel: `${entry.method} by ${client}, ${status}${took ? `, ${took}` : ''}${error ? `, ${error}` : ''}`,
  };
}

/** "0.4 ms", "12 ms", "2.5 s", "3 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The first 8 characters of a UUID: unique among a window's recent calls, and what a user greps for. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
