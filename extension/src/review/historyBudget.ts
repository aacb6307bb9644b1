// What every assistant's earlier reviews in one workspace may hold on disk together. Each review
// is up to 10 MiB, each assistant keeps up to 200 of them, and a window keeps up to 16 assistants:
// without one budget that is tens of GiB. Past it the oldest earlier reviews go first, whichever
// assistant's they are, and the window says so.

import { Disposable, toDisposable, type IDisposable } from '../../../shared/lifecycle';
import { Emitter } from '../emitter';
import type { HistoryEntry } from './reviewFiles';
import { formatSize } from '../../../shared/byteSize';

/** Earlier reviews of all assistants together; the current reviews (at most 16 × 10 MiB) come on top. */
export const MAX_HISTORY_BYTES = 512 * 1024 * 1024;

/** One assistant's earlier reviews, as the budget sees them. */
export interface BudgetedHistory {
  entries(): readonly HistoryEntry[];
  /** Drops the entries, and deletes their files with the next commit. */
  drop(revisions: ReadonlySet<number>): void;
}

export interface HistoryDrop {
  readonly count: number;
  readonly bytes: number;
  readonly maxBytes: number;
}

export class HistoryBudget extends Disposable {
  private readonly members = new Set<BudgetedHistory>();
  private readonly dropped = this.register(new Emitter<HistoryDrop>());
  /** Fires when earlier reviews were dropped to stay within the budget. */
  readonly onDidDrop = this.dropped.event;

  constructor(readonly maxBytes = MAX_HISTORY_BYTES) {
    super();
    this.register(toDisposable(() => this.members.clear()));
  }

  join(member: BudgetedHistory): IDisposable {
    this.members.add(member);
    return toDisposable(() => void this.members.delete(member));
  }

  /** Drops the oldest earlier reviews until all of them fit; each member that lost some is told once, through `drop`. */
  enforce(): void {
    const all = [...this.members].flatMap((member) => member.entries().map((entry) => ({ member, entry })));
    let total = all.reduce((sum, { entry }) => sum + entry.bytes, 0);
    if (total <= this.maxBytes) return;
    // Oldest first: by when it was made, across assistants (ISO times compare as strings).
    all.sort((a, b) =>
      a.entry.updatedAt < b.entry.updatedAt
        ? -1
        : a.entry.updatedAt > b.entry.updatedAt
          ? 1
          : a.entry.revision - b.entry.revision,
    );
    const drops = new Map<BudgetedHistory, Set<number>>();
    let count = 0;
    let bytes = 0;
    for (const { member, entry } of all) {
      if (total <= this.maxBytes) break;
      drops.set(member, (drops.get(member) ?? new Set()).add(entry.revision));
      total -= entry.bytes;
      bytes += entry.bytes;
      count++;
    }
    for (const [member, revisions] of drops) member.drop(revisions);
    this.dropped.fire({ count, bytes, maxBytes: this.maxBytes });
  }
}

/** The line the output and the Activity view show for a drop. */
export function describeDrop({ count, bytes, maxBytes }: HistoryDrop): string {
  return `Redline dropped the ${count} oldest earlier review(s) (${formatSize(bytes)}): together the earlier reviews in this workspace would hold more than ${formatSize(maxBytes)}.`;
}
