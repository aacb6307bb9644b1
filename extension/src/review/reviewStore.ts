// The window's review state: the current review, its revision, and the last N reviews. Plain
// TypeScript (no `vscode`). Changes show at once; each call's promise resolves once the change
// is on disk, in files under a directory the extension chooses (see reviewFiles.ts). Another
// window may share that directory: each commit first takes in what it wrote (catchUp).

import { MAX_REVIEW_BYTES, type ReviewMode, type Section } from '../../../shared/protocol';
import { measureReview, overBudget, type ReviewCost } from '../../../shared/reviewBudget';
import { Emitter, type Disposable } from '../events';
import { compose, composedCost, type KnownSections } from './compose';
import { GroupCommit } from './groupCommit';
import { randomBytes } from 'crypto';
import { entryOf, ReviewFiles, type CommitPlan, type DiskState, type HistoryEntry } from './reviewFiles';
import { describeProblem, historyFileName, reviewFileName, toReview, toStored, type StoredReview } from './storedState';

export type { HistoryEntry } from './reviewFiles';
export { ReviewSaveError } from './reviewFiles';

export interface Review {
  readonly revision: number;
  readonly title?: string;
  readonly markdown: string;
  /** The presenting assistant's working directory: relative references resolve there first. */
  readonly cwd?: string;
  /** The presenting assistant's name (MCP clientInfo), shown as the author of its findings. */
  readonly assistant?: string;
  readonly sections: readonly Section[];
  readonly updatedAt: string;
}

export interface PresentRequest {
  readonly content: string;
  readonly mode: ReviewMode;
  readonly section?: string;
  readonly title?: string;
  readonly cwd?: string;
  readonly assistant?: string;
}

export interface ReviewChange {
  readonly review: Review | undefined;
  readonly kind: ReviewMode | 'clear';
  readonly previousRevision: number;
  /** Set for an append: `review.markdown` ends with `markdown`, which starts on 0-based line `startLine`. */
  readonly appended?: { readonly markdown: string; readonly startLine: number };
}

export interface ReviewStoreOptions {
  readonly directory: string;
  readonly historySize: number;
  readonly log?: (message: string) => void;
}

/** A change refused because the review would outgrow what get-review can send back. */
export class ReviewTooLargeError extends Error {
  constructor(mode: ReviewMode, why = `larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB`) {
    super(
      `This ${mode} would make the review ${why}, so it was not applied. ` +
        'Present a shorter review with mode "replace", or shorten a section with "update-section".',
    );
    this.name = 'ReviewTooLargeError';
  }
}

export const MAX_HISTORY_SIZE = 200;
/**
 * What one assistant's earlier reviews may hold on disk together: 200 reviews of up to 10 MiB
 * would be 2 GiB (more where JSON escapes control characters). The oldest go first past it.
 */
export const MAX_HISTORY_BYTES = 256 * 1024 * 1024;

export class ReviewStore implements Disposable {
  private currentReview: Review | undefined;
  private lastRevision = 0;
  /** Reviews' costs as measured when they were made, so that an append measures only what it adds. */
  private readonly costs = new WeakMap<Review, ReviewCost>();
  /** The file each review on disk is in; a review not in it is written by the next commit. */
  private readonly fileOf = new WeakMap<Review, string>();
  /** Earlier reviews, newest first: metadata only, the text stays on disk. */
  private historyIndex: HistoryEntry[] = [];
  /** The files of the earlier reviews that have one. */
  private readonly historyFiles = new Map<number, string>();
  /** Earlier reviews not yet written (in memory mode, all of them). */
  private readonly unsaved = new Map<number, StoredReview>();
  /** Files to delete in the next commit: earlier reviews dropped, and reviews an append or update replaced. */
  private readonly toRemove = new Set<string>();
  /** Every review file this store has accounted for; any other in the directory another window wrote. */
  private readonly known = new Set<string>();
  /** This store's mark in the names of the files it writes (see reviewFileName). */
  private readonly writer = randomBytes(4).toString('hex');
  private currentDirty = false;
  /** The Redline 0.1 current.json review already taken in, so that it is taken in once. */
  private openedLegacy: string | undefined;
  /** Settles when the review files found on open have been listed. */
  private historyReady: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly commit = new GroupCommit(() => this.writeBatch());
  private readonly changed = new Emitter<ReviewChange>();
  /** Fires after every change, before it is on disk, so the panel shows it at once. */
  readonly onDidChange = this.changed.event;

  private constructor(
    private readonly files: ReviewFiles | undefined,
    private historySize: number,
    private readonly log: (message: string) => void,
    private readonly maxHistoryBytes = MAX_HISTORY_BYTES,
  ) {}

  /** Loads the directory. Never fails because of what is stored: bad files are moved aside and logged. */
  static async open(options: ReviewStoreOptions): Promise<ReviewStore> {
    const log = options.log ?? (() => undefined);
    const files = new ReviewFiles(options.directory, log);
    const store = new ReviewStore(files, clampHistorySize(options.historySize), log);
    let disk: DiskState = { pointer: undefined, names: [] };
    try {
      disk = await files.load();
    } catch (error) {
      log(`Redline could not read its reviews in ${options.directory} (${describeProblem(error)}); it starts with none.`);
    }
    await store.adopt(disk);
    // Listing every earlier review can take a while (Redline 0.1's files are read whole): the window does not wait for it.
    store.historyReady = store.loadHistory(disk.names);
    return store;
  }

  /** A store that keeps everything in memory, for tests that need no disk. */
  static inMemory(options: { historySize: number; maxHistoryBytes?: number; log?: (message: string) => void }): ReviewStore {
    return new ReviewStore(undefined, clampHistorySize(options.historySize), options.log ?? (() => undefined), options.maxHistoryBytes);
  }

  get current(): Review | undefined {
    return this.currentReview;
  }

  /** The latest revision issued; it also moves on a clear. */
  get revision(): number {
    return this.lastRevision;
  }

  /** Commits that reached the disk so far; a burst of changes should need only a few. */
  get commitCount(): number {
    return this.files?.commits ?? 0;
  }

  /**
   * Applies the change now (and fires onDidChange); resolves when it is on disk. Rejects with
   * ReviewTooLargeError (nothing changed) or ReviewSaveError (shown, but not saved).
   */
  present(request: PresentRequest): Promise<Review> {
    try {
      const { review, durable } = this.stage(request);
      return handled(durable.then(() => review));
    } catch (error) {
      return handled(Promise.reject(error));
    }
  }

  /**
   * The same change, handing back the review as soon as it is applied, so that work on it (the
   * render for the reference report) runs while the write is in flight. Throws
   * ReviewTooLargeError at once; `durable` rejects with ReviewSaveError. `known`: the sections of
   * the request's content, when they were found off this thread.
   */
  stage(request: PresentRequest, known?: KnownSections): { readonly review: Review; readonly durable: Promise<void> } {
    const previous = this.currentReview;
    const base = request.mode === 'replace' ? undefined : previous;
    const composed = compose(base, request, known);
    // Each call is checked for size on arrival, but appends could grow a review past what
    // get-review can send back; refuse before anything shown changes.
    if (Buffer.byteLength(composed.markdown, 'utf8') > MAX_REVIEW_BYTES) throw new ReviewTooLargeError(request.mode);
    // Each call's content is within the cost budget (the bridge checks it); together they may not be.
    const cost = base ? composedCost(this.costOf(base), composed) : undefined;
    const excess = cost && overBudget(cost);
    if (excess) throw new ReviewTooLargeError(request.mode, `hold ${excess}`);
    const previousRevision = this.lastRevision;
    if (request.mode === 'replace' && previous) this.remember(previous);
    else if (previous) this.supersede(previous);
    const review: Review = {
      revision: ++this.lastRevision,
      title: request.title ?? base?.title,
      markdown: composed.markdown,
      cwd: request.cwd ?? base?.cwd,
      assistant: request.assistant ?? base?.assistant,
      sections: composed.sections,
      updatedAt: new Date().toISOString(),
    };
    if (cost) this.costs.set(review, cost);
    const durable = handled(this.change(review));
    this.changed.fire({ review, kind: request.mode, previousRevision, appended: composed.appended });
    return { review, durable };
  }

  private costOf(review: Review): ReviewCost {
    let cost = this.costs.get(review);
    if (!cost) this.costs.set(review, (cost = measureReview(review.markdown)));
    return cost;
  }

  /** Empties the panel; the review goes to the history. Resolves when that is on disk. */
  clear(): Promise<void> {
    return handled(this.applyClear());
  }

  private async applyClear(): Promise<void> {
    if (!this.currentReview) return;
    const previousRevision = this.lastRevision;
    this.remember(this.currentReview);
    this.lastRevision++;
    const saved = this.change(undefined);
    this.changed.fire({ review: undefined, kind: 'clear', previousRevision });
    await saved;
  }

  /** Earlier reviews, newest first, without their text. */
  async listHistory(): Promise<HistoryEntry[]> {
    await this.historyReady;
    return [...this.historyIndex];
  }

  /** One earlier review, read from disk; undefined if it is not (or no longer) in the history. */
  async readHistory(revision: number): Promise<Review | undefined> {
    const unsaved = this.unsaved.get(revision);
    if (unsaved) return toReview(unsaved);
    await this.historyReady;
    const file = this.historyFiles.get(revision);
    if (!this.files || !file) return undefined;
    const stored = await this.files.readReview(file);
    if (!stored) this.historyIndex = this.historyIndex.filter((entry) => entry.revision !== revision);
    // Another window's review may be listed under a revision of its own here (see addEntry).
    return stored && toReview({ ...stored, revision });
  }

  /** Presents an earlier review again, as a new revision. */
  async restore(revision: number): Promise<Review | undefined> {
    const review = await this.readHistory(revision);
    return review && this.present({ content: review.markdown, mode: 'replace', title: review.title, cwd: review.cwd, assistant: review.assistant });
  }

  /** Applies a new history size at once: the oldest reviews past it are deleted. */
  async setHistorySize(size: number): Promise<void> {
    this.historySize = clampHistorySize(size);
    await this.historyReady;
    if (this.trimHistory()) await this.commit.request();
  }

  /** Resolves when every change so far is on disk; rejects if the write failed. */
  flush(): Promise<void> {
    return this.commit.request();
  }

  /**
   * Resolves when the last write is done (never rejects: a failure is logged), for `deactivate`
   * to hand VS Code. History still being read on open is left unread.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.changed.dispose();
    await this.historyReady;
    await this.commit.idle();
  }

  private change(review: Review | undefined): Promise<void> {
    this.currentReview = review;
    this.currentDirty = true;
    return this.commit.request();
  }

  /** The review leaves the screen for the history: its file, if it has one, stays as it is. */
  private remember(review: Review): void {
    const file = this.fileOf.get(review);
    if (file) this.historyFiles.set(review.revision, file);
    else this.unsaved.set(review.revision, toStored(review));
    this.historyIndex.unshift(entryOf(review));
    this.trimHistory();
  }

  /** An append or update replaced the review: its file goes once the new one is written. */
  private supersede(review: Review): void {
    const file = this.fileOf.get(review);
    if (file) this.toRemove.add(file);
  }

  /** Lists a review file found on disk; another window's revision that clashes with one here gets a new one. */
  private addEntry(entry: HistoryEntry, file: string): void {
    const taken = (revision: number) => this.currentReview?.revision === revision || this.historyFiles.has(revision) || this.unsaved.has(revision);
    const revision = taken(entry.revision) ? ++this.lastRevision : entry.revision;
    this.lastRevision = Math.max(this.lastRevision, revision);
    this.historyFiles.set(revision, file);
    this.historyIndex.push({ ...entry, revision });
    this.historyIndex.sort((a, b) => b.revision - a.revision);
  }

  /** Drops the oldest entries past the history size or MAX_HISTORY_BYTES; true if any files are to go. */
  private trimHistory(): boolean {
    let kept = 0;
    let bytes = 0;
    while (kept < Math.min(this.historySize, this.historyIndex.length) && bytes + this.historyIndex[kept].bytes <= this.maxHistoryBytes) bytes += this.historyIndex[kept++].bytes;
    if (kept < Math.min(this.historySize, this.historyIndex.length)) {
      this.log(`Redline dropped the ${this.historyIndex.length - kept} oldest earlier review(s): together the earlier reviews would hold more than ${(this.maxHistoryBytes / 1024 / 1024).toFixed(0)} MiB.`);
    }
    for (const entry of this.historyIndex.splice(kept)) {
      this.unsaved.delete(entry.revision);
      const file = this.historyFiles.get(entry.revision);
      this.historyFiles.delete(entry.revision);
      if (file) this.toRemove.add(file);
    }
    return this.toRemove.size > 0;
  }

  /** One group commit, under the folder's lock: what another window wrote first, then the state as it is now. */
  private async writeBatch(): Promise<void> {
    if (!this.files) return;
    let plan: CommitPlan | undefined;
    let current: Review | undefined;
    try {
      await this.files.commit(async (disk) => {
        await this.catchUp(disk);
        current = this.currentReview;
        const write = [...this.unsaved.values()].map((review) => ({ name: reviewFileName(review.revision, this.writer), review }));
        const currentFile = current && (this.fileOf.get(current) ?? reviewFileName(current.revision, this.writer));
        if (current && !this.fileOf.has(current)) write.push({ name: currentFile!, review: toStored(current) });
        // Only a change here moves current.json: another window's newer review stays on its screen and on disk.
        const pointer = this.currentDirty || disk.pointer?.version === 2 ? { revision: this.lastRevision, current: currentFile ?? null } : undefined;
        const onScreen = pointer ? pointer.current : disk.pointer?.version === 3 ? disk.pointer.current : null;
        this.currentDirty = false;
        plan = { write, pointer, remove: [...this.toRemove].filter((name) => name !== onScreen) };
        this.toRemove.clear();
        return plan;
      });
    } catch (error) {
      if (plan?.pointer) this.currentDirty = true;
      for (const name of plan?.remove ?? []) this.toRemove.add(name);
      this.log((error as Error).message);
      throw error;
    }
    for (const { name, review } of plan!.write) {
      this.known.add(name);
      if (this.unsaved.get(review.revision) === review) {
        this.unsaved.delete(review.revision);
        this.historyFiles.set(review.revision, name);
      }
    }
    if (current && plan!.pointer) this.fileOf.set(current, plan!.pointer.current!);
    for (const name of plan!.remove) this.known.delete(name);
  }

  /**
   * Takes in what another window on the same folder wrote since this store last looked: its
   * revisions (so that ours stay above them) and its reviews, which are earlier reviews here.
   */
  private async catchUp(disk: DiskState): Promise<void> {
    this.lastRevision = Math.max(this.lastRevision, disk.pointer?.revision ?? 0);
    // A Redline 0.1 host still running on this folder (an old window during an update) writes its review into current.json.
    const legacy = disk.pointer?.version === 2 ? disk.pointer.current : null;
    if (legacy && legacyKey(legacy) !== this.openedLegacy) {
      this.openedLegacy = legacyKey(legacy);
      this.adoptUnsaved(legacy);
    }
    await this.listFiles(disk.names);
    this.trimHistory();
  }

  /** Redline 0.1's current review, from inside its current.json: an earlier review here, written to a file of its own. */
  private adoptUnsaved(stored: StoredReview): void {
    const revision = this.historyIndex.some((entry) => entry.revision === stored.revision) ? ++this.lastRevision : stored.revision;
    const review = { ...stored, revision };
    this.unsaved.set(revision, review);
    this.historyIndex.push(entryOf(review));
    this.historyIndex.sort((a, b) => b.revision - a.revision);
  }

  /** Lists the review files this store has not accounted for yet. */
  private async listFiles(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (this.disposed) return;
      if (this.known.has(name)) continue;
      this.known.add(name);
      const entry = await this.files!.readEntry(name);
      if (entry) this.addEntry(entry, name);
    }
  }

  private async adopt(disk: DiskState): Promise<void> {
    const pointer = disk.pointer;
    let stored: StoredReview | undefined;
    if (pointer?.version === 2) {
      // Redline 0.1 kept the review inside current.json: it is written to a file of its own at once.
      stored = pointer.current ?? undefined;
      this.currentDirty = stored !== undefined;
      this.openedLegacy = stored && legacyKey(stored);
      // A crash between 0.1's two renames left the current review in a history file too.
      const duplicate = stored && historyFileName(stored.revision);
      if (duplicate && disk.names.includes(duplicate)) {
        this.known.add(duplicate);
        this.toRemove.add(duplicate);
      }
    } else if (pointer?.current) {
      this.known.add(pointer.current);
      stored = await this.files!.readReview(pointer.current);
    }
    this.currentReview = stored && toReview(stored);
    if (this.currentReview && pointer?.version === 3) this.fileOf.set(this.currentReview, pointer.current!);
    // Monotonic even if a review file is newer than current.json says (judged by name: a bad file only makes it higher).
    const named = disk.names.map((name) => Number(/^(?:review|history)-(\d+)/.exec(name)![1]));
    this.lastRevision = Math.max(pointer?.revision ?? 0, stored?.revision ?? 0, ...named);
    if (this.currentDirty) void this.commit.request().catch(() => undefined);
  }

  /** Lists the review files found on open; never rejects. */
  private async loadHistory(names: readonly string[]): Promise<void> {
    if (!this.files || names.length === 0) return;
    await this.listFiles(names).catch(() => undefined);
    if (!this.disposed && this.trimHistory()) await this.commit.request().catch(() => undefined);
  }
}

/**
 * Marks a promise handled: a caller that drops it causes no unhandled rejection (every failed
 * write is logged by the store), while a caller that awaits it still gets the error.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

const legacyKey = (review: StoredReview): string => `${review.revision} ${review.updatedAt}`;

function clampHistorySize(size: number): number {
  return Number.isFinite(size) ? Math.min(MAX_HISTORY_SIZE, Math.max(0, Math.floor(size))) : 0;
}
