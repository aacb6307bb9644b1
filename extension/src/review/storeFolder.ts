// The review store's side of its directory: which file holds which review, what the store wrote
// and what it has seen, and the commit that puts its state on disk. Another window may share the
// directory (two code-server tabs, or a reloaded window's old host): each commit runs under the
// folder's lock and first takes in what that window wrote, its reviews becoming earlier reviews
// here, so that neither window's review is lost.

import { randomBytes } from 'crypto';
import type { EarlierReviews } from './earlierReviews';
import type { Review } from './review';
import type { CommitPlan, DiskState, ReviewFiles } from './reviewFiles';
import { classifyFile, historyFileName, reviewFileName, toReview, toStored, type StoredReview } from './storedState';

/** What the folder needs of the store it keeps. */
export interface StoreState {
  current(): Review | undefined;
  readonly earlier: EarlierReviews;
  lastRevision(): number;
  /** Keeps the revision counter at or above `revision` (another window counts on its own). */
  sawRevision(revision: number): void;
  /** Issues the next revision. */
  nextRevision(): number;
}

export class StoreFolder {
  /** The file each review on disk is in; a review not in one is written by the next commit. */
  private readonly fileOf = new WeakMap<Review, string>();
  /** Every review file accounted for; any other in the directory another window wrote. */
  private readonly known = new Set<string>();
  /** This store's mark in the names of the files it writes (see reviewFileName). */
  private readonly writer = randomBytes(4).toString('hex');
  /** The current review changed since the last commit: current.json must move. */
  private currentChanged = false;
  /** The Redline 0.1 current.json review already taken in, so that it is taken in once. */
  private openedLegacy: string | undefined;
  private stopped = false;

  constructor(
    readonly files: ReviewFiles,
    private readonly state: StoreState,
  ) {}

  /** The file `review` is in, if it is on disk. */
  fileFor(review: Review): string | undefined {
    return this.fileOf.get(review);
  }

  currentDidChange(): void {
    this.currentChanged = true;
  }

  /** Stops listing files (the store is being disposed). */
  stop(): void {
    this.stopped = true;
  }

  /**
   * The review on screen and the revision counter as the directory has them; true in `convert`
   * when Redline 0.1's current.json must be rewritten (a commit is due at once).
   */
  async open(disk: DiskState): Promise<{ current: Review | undefined; revision: number; convert: boolean }> {
    const pointer = disk.pointer;
    let stored: StoredReview | undefined;
    if (pointer?.version === 2) {
      // Redline 0.1 kept the review inside current.json: it is written to a file of its own at once.
      stored = pointer.current ?? undefined;
      this.currentChanged = stored !== undefined;
      this.openedLegacy = stored && legacyKey(stored);
      // A crash between 0.1's two renames left the current review in a history file too.
      const duplicate = stored && historyFileName(stored.revision);
      if (duplicate && disk.names.includes(duplicate)) {
        this.known.add(duplicate);
        this.state.earlier.discard(duplicate);
      }
    } else if (pointer?.current) {
      this.known.add(pointer.current);
      stored = await this.files.readReview(pointer.current);
    }
    const current = stored && toReview(stored);
    if (current && pointer?.version === 3) this.fileOf.set(current, pointer.current!);
    // Monotonic even if a review file is newer than current.json says (judged by name, and the names
    // are newest first: a bad file only makes it higher).
    const newest = disk.names.length > 0 ? classifyFile(disk.names[0]) : undefined;
    const revision = Math.max(
      pointer?.revision ?? 0,
      stored?.revision ?? 0,
      newest?.kind === 'review' ? newest.revision : 0,
    );
    return { current, revision, convert: this.currentChanged };
  }

  /** Lists the review files not accounted for yet as earlier reviews. */
  async listFiles(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (this.stopped) return;
      if (this.known.has(name)) continue;
      this.known.add(name);
      const entry = await this.files.readEntry(name);
      if (entry) this.state.earlier.addFile({ ...entry, revision: this.freeRevision(entry.revision) }, name);
    }
  }

  /**
   * One commit, under the folder's lock: what another window wrote first, then the state as it
   * is now. `trim` runs after the other window's reviews are listed, before the plan is made.
   */
  async commit(trim: () => void): Promise<void> {
    let plan: CommitPlan | undefined;
    let current: Review | undefined;
    const { earlier } = this.state;
    try {
      await this.files.commit(async (disk) => {
        await this.catchUp(disk);
        trim();
        current = this.state.current();
        const currentFile = current && (this.fileOf.get(current) ?? reviewFileName(current.revision, this.writer));
        // Only a change here moves current.json: another window's newer review stays on its screen and on disk.
        const pointer =
          this.currentChanged || disk.pointer?.version === 2
            ? { revision: this.state.lastRevision(), current: currentFile ?? null }
            : undefined;
        const onScreen = pointer ? pointer.current : disk.pointer?.version === 3 ? disk.pointer.current : null;
        const { write, remove } = earlier.plan((revision) => reviewFileName(revision, this.writer), onScreen);
        if (current && !this.fileOf.has(current)) write.push({ name: currentFile!, review: toStored(current) });
        this.currentChanged = false;
        return (plan = { write, pointer, remove });
      });
    } catch (error) {
      if (plan?.pointer) this.currentChanged = true;
      earlier.notRemoved(plan?.remove ?? []);
      throw error;
    }
    earlier.written(plan!.write);
    for (const { name } of plan!.write) this.known.add(name);
    if (current && plan!.pointer) this.fileOf.set(current, plan!.pointer.current!);
    for (const name of plan!.remove) this.known.delete(name);
  }

  /** What another window wrote since this store last looked: its revisions (ours stay above them) and its reviews. */
  private async catchUp(disk: DiskState): Promise<void> {
    this.state.sawRevision(disk.pointer?.revision ?? 0);
    // A Redline 0.1 host still running on this folder (an old window during an update) writes its review into current.json.
    const legacy = disk.pointer?.version === 2 ? disk.pointer.current : null;
    if (legacy && legacyKey(legacy) !== this.openedLegacy) {
      this.openedLegacy = legacyKey(legacy);
      this.state.earlier.addUnsaved({ ...legacy, revision: this.freeRevision(legacy.revision) });
    }
    await this.listFiles(disk.names);
  }

  /** `revision`, or a new one when a review here has it already. */
  private freeRevision(revision: number): number {
    if (this.state.current()?.revision === revision || this.state.earlier.has(revision))
      return this.state.nextRevision();
    this.state.sawRevision(revision);
    return revision;
  }
}

const legacyKey = (review: StoredReview): string => `${review.revision} ${review.updatedAt}`;
