// What the user decided about each finding (resolved, accepted, won't fix), by finding id, in the
// order the decisions were made. Bounded: the states of MAX_FINDING_STATES findings are kept, the
// most recently changed. Both the conversation and the journal's reader keep one, since a journal
// may hold far more decisions than are kept.

import type { FindingState } from '../../../shared/findingTerms';

/** States of this many findings are kept, the most recently changed. */
export const MAX_FINDING_STATES = 5000;
/** How far past the bound the states grow before the oldest are dropped, all in one pass. */
const SLACK = 1000;

export class RecentStates {
  private readonly byFinding = new Map<string, FindingState>();

  get(findingId: string): FindingState | undefined {
    return this.byFinding.get(findingId);
  }

  /** Sets it as the newest decision. */
  set(findingId: string, state: FindingState): void {
    // Re-inserted, so that the map's order is recency and the oldest decision is the one dropped.
    this.byFinding.delete(findingId);
    this.byFinding.set(findingId, state);
    if (this.byFinding.size > MAX_FINDING_STATES + SLACK) this.dropOldest();
  }

  delete(findingId: string): void {
    this.byFinding.delete(findingId);
  }

  /** The kept states, oldest first. */
  entries(): Array<[string, FindingState]> {
    this.dropOldest();
    return [...this.byFinding];
  }

  /**
   * Down to MAX_FINDING_STATES, in one walk from the oldest. Dropping one per new state would make
   * every drop walk past the slots the earlier drops left (a Map keeps them until it is rebuilt),
   * which is quadratic in the number of stored decisions.
   */
  private dropOldest(): void {
    let excess = this.byFinding.size - MAX_FINDING_STATES;
    for (const id of this.byFinding.keys()) {
      if (excess-- <= 0) break;
      this.byFinding.delete(id);
    }
  }
}
