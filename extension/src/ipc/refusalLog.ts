// Logs the server's refusals (floods, silent or unauthenticated peers) at most once per kind per
// window of time, with a count of the ones left out, so a hostile peer cannot flood the log. Each
// is a warning: a refused peer is misconfigured (a stale token, another version) or hostile.

import type { Logger } from '../../../shared/logger';

export type RefusalKind =
  | 'flood'
  | 'timeout'
  | 'invalid'
  | 'unauthorized'
  | 'version'
  | 'too-many'
  | 'backpressure'
  | 'too-many-authenticated'
  | 'window-backpressure';

export class RefusalLog {
  private readonly lastLogged = new Map<RefusalKind, number>();
  private readonly suppressed = new Map<RefusalKind, number>();

  constructor(
    private readonly log: Logger,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  refused(kind: RefusalKind, fields: Record<string, unknown> = {}): void {
    const time = this.now();
    const last = this.lastLogged.get(kind);
    if (last !== undefined && time - last < this.intervalMs) {
      this.suppressed.set(kind, (this.suppressed.get(kind) ?? 0) + 1);
      return;
    }
    const left = this.suppressed.get(kind) ?? 0;
    this.lastLogged.set(kind, time);
    this.suppressed.delete(kind);
    this.log.warn('connection-refused', { kind, ...fields, ...(left > 0 ? { suppressedSinceLast: left } : {}) });
  }
}
