// The window's review state: the current review, its revision, its sections, and the last N
// reviews. Plain TypeScript (no `vscode`), persisted through a Memento-shaped storage so that a
// window reload loses nothing.

import { ErrorCode, IpcError, MAX_REVIEW_BYTES, type ReviewMode, type Section } from '../../../shared/protocol';
import { Emitter, type Disposable } from '../events';
import { appendMarkdown, findSections, replaceSection, toSections } from './sections';

export interface Review {
  readonly revision: number;
  readonly title?: string;
  readonly markdown: string;
  /** The presenting assistant's working directory: relative references resolve there first. */
  readonly cwd?: string;
  readonly sections: readonly Section[];
  readonly updatedAt: string;
}

export interface PresentRequest {
  readonly content: string;
  readonly mode: ReviewMode;
  readonly section?: string;
  readonly title?: string;
  readonly cwd?: string;
}

/** The subset of VS Code's Memento that the store needs. */
export interface ReviewStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface PersistedState {
  readonly version: 1;
  readonly revision: number;
  readonly current: Review | undefined;
  readonly history: readonly Review[];
}

export const STORAGE_KEY = 'redline.reviews';
/** Workspace state is not meant for unbounded blobs: old history goes first past this size. */
const MAX_PERSISTED_HISTORY_CHARS = 32 * 1024 * 1024;

export class ReviewStore implements Disposable {
  private currentReview: Review | undefined;
  private pastReviews: Review[] = [];
  private lastRevision = 0;
  private persistTimer: NodeJS.Timeout | undefined;
  /** A change not yet written to storage. */
  private dirty = false;
  private writing: Promise<void> | undefined;
  private readonly changed = new Emitter<Review | undefined>();
  /** Fires after every change, with the new current review (undefined after a clear). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly storage: ReviewStorage | undefined,
    /** `persistDelayMs` (default 0) lets a burst of changes share one write. */
    private readonly options: { historySize: number; persistDelayMs?: number },
  ) {
    const saved = storage?.get<PersistedState>(STORAGE_KEY);
    if (saved?.version === 1) {
      this.lastRevision = saved.revision;
      this.currentReview = saved.current;
      this.pastReviews = [...saved.history];
    }
  }

  get current(): Review | undefined {
    return this.currentReview;
  }

  /** The latest revision issued; it also moves on a clear. */
  get revision(): number {
    return this.lastRevision;
  }

  /** Earlier reviews, newest first. */
  get history(): readonly Review[] {
    return this.pastReviews;
  }

  present(request: PresentRequest): Review {
    const previous = this.currentReview;
    const base = request.mode === 'replace' ? undefined : previous;
    const { markdown, sections } = this.compose(base, request);
    // Each call is checked for size on arrival, but appends could grow a review past what
    // get-review can send back; refuse before anything shown changes.
    if (Buffer.byteLength(markdown, 'utf8') > MAX_REVIEW_BYTES) {
      throw new IpcError(
        ErrorCode.InvalidParams,
        `This ${request.mode} would make the review larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB, so it was not applied. ` +
          'Present a shorter review with mode "replace", or shorten a section with "update-section".',
      );
    }
    if (request.mode === 'replace' && previous) this.remember(previous);
    const review: Review = {
      revision: ++this.lastRevision,
      title: request.title ?? base?.title,
      markdown,
      cwd: request.cwd ?? base?.cwd,
      sections,
      updatedAt: new Date().toISOString(),
    };
    this.update(review);
    return review;
  }

  clear(): void {
    if (!this.currentReview) return;
    this.remember(this.currentReview);
    this.lastRevision++;
    this.update(undefined);
  }

  /** Writes any pending change to storage now. */
  async flush(): Promise<void> {
    if (this.persistTimer) {
      clearTimeout(this.persistTimer);
      this.persistTimer = undefined;
    }
    if (this.dirty || this.writing) await this.writeWhileDirty();
  }

  dispose(): void {
    void this.flush();
    this.changed.dispose();
  }

  private compose(base: Review | undefined, request: PresentRequest): { markdown: string; sections: Section[] } {
    if (!base) {
      const markdown =
        request.mode === 'update-section' ? replaceSection('', request.section!, request.content) : request.content;
      return { markdown, sections: toSections(findSections(markdown)) };
    }
    if (request.mode === 'append') {
      // Only the new part is parsed: a thousand appends stay linear, not quadratic.
      const markdown = appendMarkdown(base.markdown, request.content);
      const addition = markdown.slice(markdown.length - request.content.replace(/^\s*\n/, '').length);
      const offset = countLines(markdown, markdown.length - addition.length);
      const added = toSections(findSections(addition)).map((section) => ({ ...section, line: section.line + offset }));
      return { markdown, sections: [...base.sections, ...added] };
    }
    const markdown = replaceSection(base.markdown, request.section!, request.content);
    return { markdown, sections: toSections(findSections(markdown)) };
  }

  private remember(review: Review): void {
    this.pastReviews = [review, ...this.pastReviews].slice(0, this.options.historySize);
  }

  private update(review: Review | undefined): void {
    this.currentReview = review;
    this.schedulePersist();
    this.changed.fire(review);
  }

  /**
   * Writes soon after a change, since a window reload does not wait for pending writes. While a
   * write is under way, later changes wait for it and then go out together in one more write.
   */
  private schedulePersist(): void {
    if (!this.storage) return;
    this.dirty = true;
    if (this.writing || this.persistTimer) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      void this.writeWhileDirty();
    }, this.options.persistDelayMs ?? 0);
  }

  private writeWhileDirty(): Promise<void> {
    this.writing ??= (async () => {
      while (this.dirty) {
        this.dirty = false;
        await this.storage!.update(STORAGE_KEY, this.snapshot());
      }
    })().finally(() => {
      this.writing = undefined;
      if (this.dirty) this.schedulePersist();
    });
    return this.writing;
  }

  private snapshot(): PersistedState {
    let budget = MAX_PERSISTED_HISTORY_CHARS;
    const history = this.pastReviews.filter((review) => (budget -= review.markdown.length) >= 0);
    return { version: 1, revision: this.lastRevision, current: this.currentReview, history };
  }
}

/** Number of newlines before `end`: the 0-based line that `end` falls on. */
function countLines(text: string, end: number): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
