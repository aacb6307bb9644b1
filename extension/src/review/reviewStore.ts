// The window's review state: the current review, its revision, and the last N reviews. Plain
// TypeScript (no `vscode`). Changes show at once; each call's promise resolves once the change
// is on disk, in files under a directory the extension chooses (see reviewFiles.ts).

import { MAX_REVIEW_BYTES, type ReviewMode, type Section } from '../../../shared/protocol';
import { measureReview, overBudget, type ReviewCost } from '../../../shared/reviewBudget';
import { Emitter, type Disposable } from '../events';
import { compose, composedCost, type KnownSections } from './compose';
import { GroupCommit } from './groupCommit';
import { entryOf, ReviewFiles, type HistoryEntry, type LoadedFiles } from './reviewFiles';
import { clearLegacyState, hasLegacyState, readLegacyState, type LegacyStorage } from './legacyState';
import { describeProblem, toReview, toStored, type StoredCurrent, type StoredReview } from './storedState';

export type { HistoryEntry } from './reviewFiles';
export { ReviewSaveError } from './reviewFiles';
export { STORAGE_KEY, type LegacyStorage } from './legacyState';

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
  /** Workspace state, where Redline kept reviews before they had files: read once, then cleared. */
  readonly legacy?: LegacyStorage;
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
  /** Earlier reviews, newest first: metadata only, the text stays on disk. */
  private historyIndex: HistoryEntry[] = [];
  /** Earlier reviews not yet written (in memory mode, all of them). */
  private readonly unsaved = new Map<number, StoredReview>();
  /** History files to delete in the next commit. */
  private readonly toRemove = new Set<number>();
  private currentDirty = false;
  /** Settles when the history files found on open have been validated and indexed. */
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
    let loaded: LoadedFiles = { current: undefined, historyRevisions: [] };
    try {
      loaded = await files.load();
    } catch (error) {
      log(`Redline could not read its reviews in ${options.directory} (${describeProblem(error)}); it starts with none.`);
    }
    store.adopt(loaded.current, loaded.historyRevisions);
    if (options.legacy) await store.migrate(options.legacy, loaded.current !== undefined || loaded.historyRevisions.length > 0);
    // Reading every history file can take seconds (200 × 10 MiB at most): the window does not wait for it.
    store.historyReady = store.loadHistory(loaded.current?.current?.revision, loaded.historyRevisions);
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
    if (!this.files || !this.historyIndex.some((entry) => entry.revision === revision)) return undefined;
    const stored = await this.files.readHistory(revision);
    if (!stored) this.historyIndex = this.historyIndex.filter((entry) => entry.revision !== revision);
    return stored && toReview(stored);
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

  private remember(review: Review): void {
    const stored = toStored(review);
    this.unsaved.set(stored.revision, stored);
    this.historyIndex.unshift(entryOf(stored));
    this.trimHistory();
  }

  /** Drops the oldest entries past the history size or MAX_HISTORY_BYTES; true if any went. */
  private trimHistory(): boolean {
    let kept = 0;
    let bytes = 0;
    while (kept < Math.min(this.historySize, this.historyIndex.length) && bytes + this.historyIndex[kept].bytes <= this.maxHistoryBytes) bytes += this.historyIndex[kept++].bytes;
    if (kept < Math.min(this.historySize, this.historyIndex.length)) {
      this.log(`Redline dropped the ${this.historyIndex.length - kept} oldest earlier review(s): together the earlier reviews would hold more than ${(this.maxHistoryBytes / 1024 / 1024).toFixed(0)} MiB.`);
    }
    const dropped = this.historyIndex.splice(kept);
    for (const entry of dropped) {
      this.unsaved.delete(entry.revision);
      if (this.files) this.toRemove.add(entry.revision);
    }
    return this.toRemove.size > 0;
  }

  /** One group commit: the state as it is now. What fails is kept to be tried again with the next change. */
  private async writeBatch(): Promise<void> {
    if (!this.files) return;
    const add = [...this.unsaved.values()].filter((review) => !this.toRemove.has(review.revision));
    const remove = [...this.toRemove];
    this.toRemove.clear();
    const current = this.currentDirty
      ? { version: 2 as const, revision: this.lastRevision, current: this.currentReview ? toStored(this.currentReview) : null }
      : undefined;
    this.currentDirty = false;
    try {
      await this.files.commit({ current, add, remove });
      for (const review of add) if (this.unsaved.get(review.revision) === review) this.unsaved.delete(review.revision);
    } catch (error) {
      if (current) this.currentDirty = true;
      for (const revision of remove) this.toRemove.add(revision);
      this.log((error as Error).message);
      throw error;
    }
  }

  private adopt(loaded: StoredCurrent | undefined, historyRevisions: readonly number[]): void {
    const current = loaded?.current ?? undefined;
    this.currentReview = current && toReview(current);
    // Monotonic even if a history file is newer than current.json says (judged by name: a bad file only makes it higher).
    this.lastRevision = Math.max(loaded?.revision ?? 0, current?.revision ?? 0, ...historyRevisions);
  }

  /** Validates the history files found on open and merges them into the index; never rejects. */
  private async loadHistory(loadedCurrent: number | undefined, revisions: readonly number[]): Promise<void> {
    if (!this.files || revisions.length === 0) return;
    const entries = await this.files.validateHistory(revisions, () => this.disposed).catch(() => []);
    if (this.disposed) return;
    // Reviews remembered since open are newer than the files' copies of them.
    const known = new Set(this.historyIndex.map((entry) => entry.revision));
    const found = entries.filter((entry) => {
      if (known.has(entry.revision)) return false;
      // A crash between writing a history file and current.json leaves the current review in both: current.json wins.
      if (entry.revision === loadedCurrent) this.toRemove.add(entry.revision);
      return entry.revision !== loadedCurrent;
    });
    this.historyIndex = [...this.historyIndex, ...found].sort((a, b) => b.revision - a.revision);
    if (this.trimHistory()) await this.commit.request().catch(() => undefined);
  }

  /** Moves the version 1 workspace-state reviews into files once; the key is cleared only after they are on disk. */
  private async migrate(legacy: LegacyStorage, haveFiles: boolean): Promise<void> {
    if (!hasLegacyState(legacy)) return;
    // Files are newer than anything in workspace state: then the old value is only cleared.
    const state = haveFiles ? undefined : readLegacyState(legacy, this.log);
    if (state) {
      this.adopt(state.current, []);
      this.historyIndex = state.history.map(entryOf);
      for (const review of state.history) this.unsaved.set(review.revision, review);
      this.trimHistory();
      this.currentDirty = true;
      try {
        await this.commit.request();
      } catch {
        return; // Logged; the old key stays, so the next window tries again.
      }
    }
    await clearLegacyState(legacy, this.log);
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

function clampHistorySize(size: number): number {
  return Number.isFinite(size) ? Math.min(MAX_HISTORY_SIZE, Math.max(0, Math.floor(size))) : 0;
}
