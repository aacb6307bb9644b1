// One assistant's earlier reviews: the list the history shows (newest first, without the text),
// which file holds each, which are still to be written, and which files are to go. The review
// store decides when; this keeps the books, and the workspace's history budget may take the
// oldest entries away.

import { entryOf, type HistoryEntry } from './reviewFiles';
import type { StoredReview } from './storedState';

export class EarlierReviews {
  /** Newest first. */
  private index: HistoryEntry[] = [];
  /** The files of those that have one. */
  private readonly files = new Map<number, string>();
  /** Those not yet written (in memory mode, all of them). */
  private readonly unsaved = new Map<number, StoredReview>();
  /** Files to delete in the next commit: earlier reviews dropped, and reviews an append or update replaced. */
  private readonly doomed = new Set<string>();

  constructor(private size: number) {}

  list(): HistoryEntry[] {
    return [...this.index];
  }

  has(revision: number): boolean {
    return this.files.has(revision) || this.unsaved.has(revision);
  }

  unsavedReview(revision: number): StoredReview | undefined {
    return this.unsaved.get(revision);
  }

  fileOf(revision: number): string | undefined {
    return this.files.get(revision);
  }

  /** A review that left the screen: its file, if it has one, stays as it is; otherwise it is written. */
  remember(entry: HistoryEntry, saved: { readonly file: string } | { readonly review: StoredReview }): void {
    if ('file' in saved) this.files.set(entry.revision, saved.file);
    else this.unsaved.set(entry.revision, saved.review);
    this.index.unshift(entry);
  }

  /** A review file found on disk, listed under `revision`. */
  addFile(entry: HistoryEntry, file: string): void {
    this.files.set(entry.revision, file);
    this.insert(entry);
  }

  /** A review from elsewhere (Redline 0.1's current.json) that needs a file of its own. */
  addUnsaved(review: StoredReview): void {
    this.unsaved.set(review.revision, review);
    this.insert(entryOf(review));
  }

  /** A file that goes with the next commit. */
  discard(file: string): void {
    this.doomed.add(file);
  }

  /** An entry whose file turned out to be gone or bad. */
  forget(revision: number): void {
    this.index = this.index.filter((entry) => entry.revision !== revision);
    this.files.delete(revision);
  }

  setSize(size: number): void {
    this.size = size;
  }

  /** Drops the entries past the history size; true if there are files to delete. */
  trim(): boolean {
    for (const entry of this.index.splice(this.size)) this.release(entry.revision);
    return this.doomed.size > 0;
  }

  /**
   * Drops entries the workspace's budget has no room for, in one pass over the list: a folder of
   * many files drops many at once, and one pass per entry made that quadratic.
   */
  drop(revisions: ReadonlySet<number>): void {
    this.index = this.index.filter((entry) => !revisions.has(entry.revision));
    for (const revision of revisions) this.release(revision);
  }

  /** What the next commit writes (as `nameOf` names them) and deletes; `keep` is never deleted. */
  plan(
    nameOf: (revision: number) => string,
    keep: string | null,
  ): { write: Array<{ name: string; review: StoredReview }>; remove: string[] } {
    const write = [...this.unsaved.values()].map((review) => ({ name: nameOf(review.revision), review }));
    const remove = [...this.doomed].filter((name) => name !== keep);
    this.doomed.clear();
    return { write, remove };
  }

  /** The commit is on disk: what it wrote has a file now. */
  written(write: ReadonlyArray<{ name: string; review: StoredReview }>): void {
    for (const { name, review } of write) {
      if (this.unsaved.get(review.revision) !== review) continue;
      this.unsaved.delete(review.revision);
      this.files.set(review.revision, name);
    }
  }

  /** The commit failed: its deletions are tried again with the next. */
  notRemoved(remove: readonly string[]): void {
    for (const name of remove) this.doomed.add(name);
  }

  /** An entry is gone from the list: its file goes with the next commit, and an unwritten review is not written. */
  private release(revision: number): void {
    const file = this.files.get(revision);
    if (file) this.doomed.add(file);
    this.files.delete(revision);
    this.unsaved.delete(revision);
  }

  /**
   * In its place by revision. Files are listed newest first, so this is nearly always the end;
   * sorting the whole list again for each one made a folder of many files quadratic.
   */
  private insert(entry: HistoryEntry): void {
    let low = 0;
    let high = this.index.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.index[middle].revision >= entry.revision) low = middle + 1;
      else high = middle;
    }
    this.index.splice(low, 0, entry);
  }
}
