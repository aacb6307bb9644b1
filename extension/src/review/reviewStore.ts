// The window's review state: the current review, its revision, and the last N reviews. Plain
// TypeScript (no `vscode`). Changes show at once; each call's promise resolves once the change
// is on disk, in files under a directory the extension chooses (see reviewFiles.ts). Another
// window may share that directory: each commit first takes in what it wrote (catchUp).

import { utf8Bytes } from '../../../shared/byteSize';
import { MAX_REVIEW_BYTES } from '../../../shared/protocol';
import { measureReview, overBudget, type ReviewCost } from '../../../shared/reviewBudget';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { silentLogger, type Logger } from '../../../shared/logger';
import { Emitter } from '../emitter';
import { compose, composedCost, type KnownSections } from './compose';
import { ReviewTooLargeError, type PresentRequest, type Review, type ReviewChange } from './review';
import { GroupCommit } from './groupCommit';
import { EarlierReviews } from './earlierReviews';
import { describeDrop, HistoryBudget } from './historyBudget';
import { entryOf, ReviewFiles, type DiskState, type HistoryEntry } from './reviewFiles';
import { StoreFolder, type StoreState } from './storeFolder';
import { describeProblem, toReview, toStored } from './storedState';

export type { HistoryEntry } from './reviewFiles';
export { ReviewSaveError } from './reviewFiles';
export { ReviewTooLargeError, type PresentRequest, type Review, type ReviewChange } from './review';

export interface ReviewStoreOptions {
  readonly directory: string;
  readonly historySize: number;
  readonly log?: Logger;
  /** The workspace's budget for earlier reviews, shared with the other assistants' stores; a store of its own otherwise. */
  readonly budget?: HistoryBudget;
}

export const MAX_HISTORY_SIZE = 200;

/** A store in memory: its own budget may be given a size (tests). */
type InMemoryOptions = Omit<ReviewStoreOptions, 'directory'> & { readonly maxHistoryBytes?: number };

/** What a store is made of, once its files (if any) are known. */
type StoreParts = InMemoryOptions & { readonly files: ReviewFiles | undefined; readonly log: Logger };

export class ReviewStore extends Disposable {
  private currentReview: Review | undefined;
  private lastRevision = 0;
  /** Reviews' costs as measured when they were made, so that an append measures only what it adds. */
  private readonly costs = new WeakMap<Review, ReviewCost>();
  private readonly earlier: EarlierReviews;
  /** Its directory; undefined in memory. */
  private readonly folder: StoreFolder | undefined;
  /** Settles when the review files found on open have been listed. */
  private historyReady: Promise<void> = Promise.resolve();
  private readonly commit = new GroupCommit(() => this.writeBatch());
  private readonly changed = new Emitter<ReviewChange>();
  /** Fires after every change, before it is on disk, so the panel shows it at once. */
  readonly onDidChange = this.changed.event;
  private readonly log: Logger;
  private readonly budget: HistoryBudget;

  private constructor(parts: StoreParts) {
    super();
    this.log = parts.log;
    this.earlier = new EarlierReviews(clampHistorySize(parts.historySize));
    this.folder = parts.files && new StoreFolder(parts.files, this.folderState());
    // Released last: dispose() resolves once the last write is done (it never rejects: a failure
    // is logged). History still being read on open is left unread.
    this.register(
      toDisposable(async () => {
        await this.historyReady;
        await this.commit.idle();
      }),
    );
    this.budget = parts.budget ?? this.register(new HistoryBudget(parts.maxHistoryBytes));
    if (!parts.budget) this.register(this.budget.onDidDrop((drop) => this.log.warn(describeDrop(drop))));
    this.register(
      this.budget.join({
        entries: () => this.earlier.list(),
        drop: (revisions) => {
          this.earlier.drop(revisions);
          void this.commit.request().catch(() => undefined);
        },
      }),
    );
    this.register(this.changed);
    this.register(toDisposable(() => this.folder?.stop()));
  }

  /** Loads the directory. Never fails because of what is stored: bad files are moved aside and logged. */
  static async open(options: ReviewStoreOptions): Promise<ReviewStore> {
    const log = options.log ?? silentLogger;
    const files = new ReviewFiles(options.directory, log);
    const store = new ReviewStore({ files, historySize: options.historySize, log, budget: options.budget });
    let disk: DiskState = { pointer: undefined, names: [] };
    try {
      disk = await files.load();
    } catch (error) {
      log.warn('Redline could not read its reviews; it starts with none.', {
        directory: options.directory,
        error: describeProblem(error),
      });
    }
    const { current, revision, convert } = await store.folder!.open(disk);
    store.currentReview = current;
    store.lastRevision = revision;
    if (convert) void store.commit.request().catch(() => undefined);
    // Listing every earlier review can take a while (Redline 0.1's files are read whole): the window does not wait for it.
    store.historyReady = store.loadHistory(disk.names);
    return store;
  }

  /** A store that keeps everything in memory, for tests that need no disk. */
  static inMemory(options: InMemoryOptions): ReviewStore {
    return new ReviewStore({ ...options, files: undefined, log: options.log ?? silentLogger });
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
    return this.folder?.files.commits ?? 0;
  }

  /**
   * Applies the change now (and fires onDidChange); resolves when it is on disk. Rejects with
   * ReviewTooLargeError (nothing changed) or ReviewSaveError (shown, but not saved).
   */
  present(request: PresentRequest, known?: KnownSections): Promise<Review> {
    try {
      const { review, durable } = this.stage(request, known);
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
  stage(
    request: PresentRequest,
    known?: KnownSections,
  ): { readonly review: Review; readonly durable: Promise<void>; readonly changedFrom?: number } {
    const previous = this.currentReview;
    const base = request.mode === 'replace' ? undefined : previous;
    const composed = compose(base, request, known);
    // Each call is checked for size on arrival, but appends could grow a review past what
    // get-review can send back; refuse before anything shown changes.
    if (utf8Bytes(composed.markdown) > MAX_REVIEW_BYTES) throw new ReviewTooLargeError(request.mode);
    // Each call's content is within the cost budget (the bridge checks it); together they may not be.
    const cost = base ? composedCost(this.costOf(base), composed) : undefined;
    const excess = cost && overBudget(cost);
    if (excess) throw new ReviewTooLargeError(request.mode, `hold ${excess}`);
    const previousRevision = this.lastRevision;
    if (request.mode === 'replace' && previous) this.remember(previous);
    else if (previous && this.folder?.fileFor(previous)) this.earlier.discard(this.folder.fileFor(previous)!); // An append replaced it.
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
    return { review, durable, changedFrom: composed.changedFrom };
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
    return this.earlier.list();
  }

  /** One earlier review, read from disk; undefined if it is not (or no longer) in the history. */
  async readHistory(revision: number): Promise<Review | undefined> {
    const unsaved = this.earlier.unsavedReview(revision);
    if (unsaved) return toReview(unsaved);
    await this.historyReady;
    const file = this.earlier.fileOf(revision);
    if (!this.folder || !file) return undefined;
    const stored = await this.folder.files.readReview(file);
    if (!stored) this.earlier.forget(revision);
    // Another window's review may be listed under a revision of its own here (see StoreFolder.listFiles).
    return stored && toReview({ ...stored, revision });
  }

  /** Presents an earlier review again, as a new revision, with the sections it already has. */
  async restore(revision: number): Promise<Review | undefined> {
    const review = await this.readHistory(revision);
    if (!review) return undefined;
    const { markdown, title, cwd, assistant, sections } = review;
    return this.present({ content: markdown, mode: 'replace', title, cwd, assistant }, { markdown, sections });
  }

  /** Applies a new history size at once: the oldest reviews past it are deleted. */
  async setHistorySize(size: number): Promise<void> {
    this.earlier.setSize(clampHistorySize(size));
    await this.historyReady;
    if (this.trimHistory()) await this.commit.request();
  }

  /** Resolves when every change so far is on disk; rejects if the write failed. */
  flush(): Promise<void> {
    return this.commit.request();
  }

  private change(review: Review | undefined): Promise<void> {
    this.currentReview = review;
    this.folder?.currentDidChange();
    return this.commit.request();
  }

  /** The review leaves the screen for the history: its file, if it has one, stays as it is. */
  private remember(review: Review): void {
    const file = this.folder?.fileFor(review);
    this.earlier.remember(entryOf(review), file ? { file } : { review: toStored(review) });
    this.trimHistory();
  }

  /** The history size, then the workspace's budget; true if there are files to delete. */
  private trimHistory(): boolean {
    this.budget.enforce();
    return this.earlier.trim();
  }

  private async writeBatch(): Promise<void> {
    try {
      await this.folder?.commit(() => this.trimHistory());
    } catch (error) {
      this.log.warn((error as Error).message);
      throw error;
    }
  }

  /** Lists the review files found on open; never rejects. */
  private async loadHistory(names: readonly string[]): Promise<void> {
    if (!this.folder || names.length === 0) return;
    await this.folder.listFiles(names).catch(() => undefined);
    if (this.trimHistory()) await this.commit.request().catch(() => undefined);
  }

  private folderState(): StoreState {
    return {
      current: () => this.currentReview,
      earlier: this.earlier,
      lastRevision: () => this.lastRevision,
      sawRevision: (revision) => void (this.lastRevision = Math.max(this.lastRevision, revision)),
      nextRevision: () => ++this.lastRevision,
    };
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
