// Caps across all of a window's connections. Each connection already bounds itself (unread
// replies, requests in flight), but a few that never read could still hold gigabytes between them.
// So the window also bounds how many authenticated connections it keeps and how many unsent bytes
// they hold together, and says which connection to close when a cap is passed.

/** What the caps look at in a connection. */
export interface CappedConnection {
  readonly id: number;
  readonly isAuthenticated: boolean;
  /** Nothing running or waiting on it. */
  readonly isIdle: boolean;
  /** When it last sent anything (ms). */
  readonly lastActive: number;
  /** Bytes written to it that its peer has not read. */
  readonly unsentBytes: number;
}

export interface WindowCaps {
  /** Authenticated connections kept at once (one per MCP server of an assistant). */
  readonly maxAuthenticated: number;
  /** Unsent bytes across every connection. */
  readonly maxTotalUnsentBytes: number;
}

/**
 * The connection to close when more than `max` are authenticated: the one idle the longest, so an
 * assistant that is working keeps its connection; if every other one is busy, the newest itself.
 */
export function pastAuthenticatedCap<C extends CappedConnection>(
  connections: Iterable<C>,
  newest: C,
  max: number,
): C | undefined {
  const authenticated = [...connections].filter((connection) => connection.isAuthenticated);
  if (authenticated.length <= max) return undefined;
  const idle = authenticated
    .filter((connection) => connection !== newest && connection.isIdle)
    .sort((a, b) => a.lastActive - b.lastActive);
  return idle[0] ?? newest;
}

/**
 * The connections to close so that the unsent bytes of all of them fit in `max`: those holding
 * the most first, since a peer that does not read is the one whose replies pile up.
 */
export function pastUnsentCap<C extends CappedConnection>(connections: Iterable<C>, max: number): C[] {
  const holding = [...connections].filter((connection) => connection.unsentBytes > 0);
  let total = holding.reduce((sum, connection) => sum + connection.unsentBytes, 0);
  const closing: C[] = [];
  for (const connection of holding.sort((a, b) => b.unsentBytes - a.unsentBytes)) {
    if (total <= max) break;
    closing.push(connection);
    total -= connection.unsentBytes;
  }
  return closing;
}
