// Each assistant's own review in this window: when Claude Code and Codex both present, neither
// replaces the other's review. Each has its store, its conversation and its findings; the panel
// shows one at a time (the active one) as a tab. Plain TypeScript (no `vscode`).

import { Disposable, type IDisposable } from '../../../shared/lifecycle';
import { silentLogger, type Logger } from '../../../shared/logger';
import type { FeedbackItem } from '../../../shared/protocol';
import { Emitter, type Event } from '../emitter';
import type { ReviewRenderer } from '../render/reviewRenderer';
import { AssistantIndex, MAX_ASSISTANTS, PRIMARY_DIR, type AssistantFolders } from './assistantIndex';
import { Conversation } from './conversation';
import { describeDrop, HistoryBudget, type HistoryDrop } from './historyBudget';
import { ImportedLogFile } from './importedLogFile';
import { IncomingReview } from './incomingReview';
import type { ReviewFindings } from './reviewFindings';
import { ReviewHistory } from './reviewHistory';
import { ReviewStore, type ReviewChange } from './reviewStore';

/** What each assistant's review needs from the editor: its findings, anchored in the code. */
export interface FindingsAttachment {
  /** Owned by the review from then on; its dispose() resolves once what the findings remember is on disk. */
  readonly findings: ReviewFindings;
  /** What keeps the findings current from outside (the editor's listeners): released before them. */
  readonly feeds?: IDisposable;
}

export interface AssistantReviewsOptions {
  /** The storage folder; undefined keeps everything in memory (tests). */
  readonly root: string | undefined;
  readonly historySize: number;
  /** What all assistants' earlier reviews may hold together (historyBudget.ts; tests set a small one). */
  readonly maxHistoryBytes?: number;
  readonly log: Logger;
  readonly renderer: Pick<ReviewRenderer, 'render' | 'renderFragment'> & Partial<Pick<ReviewRenderer, 'keepOnly'>>;
  readonly attachFindings: (review: AssistantReview) => FindingsAttachment;
}

/** What one assistant's review is made of; its store and conversation are owned by it from then on. */
export interface AssistantReviewParts {
  /** Identifies the review in the window (the tab): its folder, '' for the first assistant's. */
  readonly key: string;
  /** The assistant's MCP client name; undefined until the first assistant says its name. */
  readonly name: string | undefined;
  readonly store: ReviewStore;
  readonly conversation: Conversation;
  /** Where its files are; undefined when kept in memory. */
  readonly folders: AssistantFolders | undefined;
  readonly renderer: Pick<ReviewRenderer, 'render' | 'renderFragment'>;
  /** What a SARIF log imported as this review was; in memory when absent. */
  readonly importedLog?: ImportedLogFile;
  /** Called once the rest is in place, to attach the findings. */
  readonly attachFindings: (review: AssistantReview) => FindingsAttachment;
}

export class AssistantReview extends Disposable {
  readonly key: string;
  name: string | undefined;
  readonly store: ReviewStore;
  readonly conversation: Conversation;
  readonly folders: AssistantFolders | undefined;
  readonly history: ReviewHistory;
  /** A large review of this assistant's that is still being rendered, shown meanwhile. */
  readonly incoming: IncomingReview;
  readonly findings: ReviewFindings;
  /** What a SARIF log imported as this review was, for its export (importedLogFile.ts). */
  readonly importedLog: ImportedLogFile;

  constructor(parts: AssistantReviewParts) {
    super();
    this.key = parts.key;
    this.name = parts.name;
    this.store = this.register(parts.store);
    this.conversation = this.register(parts.conversation);
    this.folders = parts.folders;
    this.importedLog = parts.importedLog ?? new ImportedLogFile(undefined, silentLogger);
    this.incoming = this.register(new IncomingReview());
    this.history = new ReviewHistory(this.store, parts.renderer, (id) => this.conversation.stateOf(id));
    const { findings, feeds } = parts.attachFindings(this);
    this.findings = this.register(findings);
    if (feeds) this.register(feeds);
  }

  /** The tab's label. */
  get label(): string {
    return this.name ?? this.store.current?.assistant ?? 'Review';
  }
}

export interface AssistantReviewChange {
  readonly review: AssistantReview;
  readonly change: ReviewChange;
}

/** Where the reviews are opened: the same for every assistant's. */
interface ReviewSetup {
  readonly options: AssistantReviewsOptions;
  readonly index: AssistantIndex;
  /** One budget for every assistant's earlier reviews in this workspace. */
  readonly budget: HistoryBudget;
}

export class AssistantReviews extends Disposable {
  private readonly reviews: AssistantReview[] = [];
  private activeReview: AssistantReview;
  /** Assistants whose review is being set up, so that two first calls at once make one. */
  private readonly opening = new Map<string, Promise<AssistantReview>>();
  private readonly changed = this.register(new Emitter<AssistantReviewChange>());
  private readonly activeChanged = this.register(new Emitter<AssistantReview>());
  private readonly feedbackAdded = this.register(new Emitter<{ review: AssistantReview; item: FeedbackItem }>());
  private readonly listChanged = this.register(new Emitter<void>());
  private readonly incomingChanged = this.register(new Emitter<AssistantReview>());
  /** Every change to any assistant's review; the active review has already moved to a replaced one. */
  readonly onDidChangeReview = this.changed.event;
  readonly onDidChangeActive = this.activeChanged.event;
  readonly onDidAddFeedback = this.feedbackAdded.event;
  /** An assistant was added, or a review appeared or went (the panel's tabs). */
  readonly onDidChangeList = this.listChanged.event;
  /** An assistant's incoming review appeared or went. */
  readonly onDidChangeIncoming = this.incomingChanged.event;
  /** Earlier reviews were dropped to keep the workspace's within its budget (see historyBudget.ts). */
  readonly onDidDropHistory: Event<HistoryDrop>;

  private constructor(
    private readonly setup: ReviewSetup,
    primary: AssistantReview,
  ) {
    super();
    this.register(setup.budget);
    this.register(setup.budget.onDidDrop((drop) => setup.options.log.warn(describeDrop(drop))));
    this.onDidDropHistory = setup.budget.onDidDrop;
    this.activeReview = primary;
  }

  static async open(options: AssistantReviewsOptions): Promise<AssistantReviews> {
    const index = options.root ? await AssistantIndex.load(options.root, options.log) : AssistantIndex.inMemory();
    const setup: ReviewSetup = { options, index, budget: new HistoryBudget(options.maxHistoryBytes) };
    const primaryEntry = index.all.find((entry) => entry.dir === PRIMARY_DIR);
    const primary = await openReview(setup, { dir: PRIMARY_DIR, name: primaryEntry?.name });
    // Before the list existed, the first assistant was the one its current review names.
    primary.name ??= primary.store.current?.assistant;
    const reviews = new AssistantReviews(setup, primary);
    reviews.adopt(primary);
    const others = await Promise.all(
      index.all.filter((entry) => entry.dir !== PRIMARY_DIR).map((entry) => openReview(setup, entry)),
    );
    for (const review of others) reviews.adopt(review);
    // The panel opens on the review presented last.
    const newest = reviews.reviews.filter((review) => review.store.current).sort((a, b) => newer(b, a))[0];
    if (newest) reviews.activeReview = newest;
    return reviews;
  }

  get primary(): AssistantReview {
    return this.reviews[0];
  }

  get all(): readonly AssistantReview[] {
    return this.reviews;
  }

  /** The review the panel shows, and the one the editor's threads and Problems entries are for. */
  get active(): AssistantReview {
    return this.activeReview;
  }

  /** Shows another assistant's review; false if there is no such review. */
  select(key: string): boolean {
    const review = this.reviews.find((candidate) => candidate.key === key);
    if (!review) return false;
    this.activate(review);
    return true;
  }

  /**
   * The review a call from `assistant` reads, without making one: its own, or the first
   * assistant's while that has no name (an assistant that never presented reads what is there).
   */
  lookup(assistant: string | undefined): AssistantReview | undefined {
    if (assistant === undefined) return this.primary;
    return (
      this.reviews.find((review) => review.name === assistant) ??
      (this.primary.name === undefined ? this.primary : undefined)
    );
  }

  /** The review `assistant` presents to, if it has one already. */
  existing(assistant: string | undefined): AssistantReview | undefined {
    return assistant === undefined ? this.primary : this.reviews.find((review) => review.name === assistant);
  }

  /** The review `assistant` presents to, made (and its folder listed on disk) on its first call. */
  forAssistant(assistant: string | undefined): Promise<AssistantReview> {
    const found = this.existing(assistant);
    if (found) return Promise.resolve(found);
    const name = assistant!;
    let opening = this.opening.get(name);
    if (!opening) {
      opening = this.add(name).finally(() => this.opening.delete(name));
      this.opening.set(name, opening);
    }
    return opening;
  }

  async setHistorySize(size: number): Promise<void> {
    await Promise.all(this.reviews.map((review) => review.store.setHistorySize(size)));
  }

  private async add(name: string): Promise<AssistantReview> {
    if (this.primary.name === undefined) {
      // The window's first assistant to say its name takes the first review.
      await this.setup.index.add({ name, dir: PRIMARY_DIR });
      this.primary.name = name;
      this.listChanged.fire();
      return this.primary;
    }
    if (this.reviews.length >= MAX_ASSISTANTS) {
      throw new Error(
        `Redline keeps reviews for at most ${MAX_ASSISTANTS} assistants in one window, and this window has them: ` +
          `${this.reviews.map((review) => review.label).join(', ')}. Present as one of them, or use another window.`,
      );
    }
    const dir = AssistantIndex.dirFor(name);
    const review = await openReview(this.setup, { dir, name });
    // Listed only once its folders could be read, and before its first reply says "done".
    await this.setup.index.add({ name, dir });
    this.adopt(review);
    this.listChanged.fire();
    return review;
  }

  /** Takes ownership of `review`; its listeners go before it (dispose() resolves once its store's last write is done). */
  private adopt(review: AssistantReview): void {
    this.reviews.push(review);
    this.register(review);
    this.register(
      review.store.onDidChange((change) => {
        // What was replaced is no longer drawn from: its render goes before the new one is made.
        this.setup.options.renderer.keepOnly?.(this.reviews.flatMap((each) => each.store.current ?? []));
        // A new review is what the user wants to see: its tab comes to the front.
        if (change.kind === 'replace') this.activate(review);
        this.changed.fire({ review, change });
        if (change.kind === 'replace' || change.kind === 'clear') this.listChanged.fire();
      }),
    );
    this.register(review.conversation.onDidAdd((item) => this.feedbackAdded.fire({ review, item })));
    this.register(review.incoming.onDidChange(() => this.incomingChanged.fire(review)));
  }

  private activate(review: AssistantReview): void {
    if (review === this.activeReview) return;
    this.activeReview = review;
    this.activeChanged.fire(review);
  }
}

/** Opens the review kept in `entry.dir`; the folder is its key in the window. */
async function openReview(
  { options, index, budget }: ReviewSetup,
  entry: { readonly dir: string; readonly name: string | undefined },
): Promise<AssistantReview> {
  const folders = index.folders(entry.dir);
  const { historySize, log, renderer, attachFindings } = options;
  const store = folders
    ? await ReviewStore.open({ directory: folders.reviews, historySize, log: log.for('store'), budget })
    : ReviewStore.inMemory({ historySize, budget });
  const conversation = folders
    ? await Conversation.open(folders.conversation, log.for('conversation'))
    : Conversation.inMemory();
  return new AssistantReview({
    key: entry.dir,
    name: entry.name,
    store,
    conversation,
    folders,
    renderer,
    importedLog: new ImportedLogFile(folders?.conversation, log.for('imported-log')),
    attachFindings,
  });
}

function newer(a: AssistantReview, b: AssistantReview): number {
  return Date.parse(a.store.current?.updatedAt ?? '') - Date.parse(b.store.current?.updatedAt ?? '') || 0;
}
