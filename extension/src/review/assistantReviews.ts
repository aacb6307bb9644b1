// Each assistant's own review in this window: when Claude Code and Codex both present, neither
// replaces the other's review. Each has its store, its conversation and its findings; the panel
// shows one at a time (the active one) as a tab. Plain TypeScript (no `vscode`).

import { IncomingReview } from './incomingReview';
import { Emitter, type Event } from '../emitter';
import type { IDisposable } from '../../../shared/lifecycle';
import { ReviewHistory } from './reviewHistory';
import type { ReviewFindings } from './reviewFindings';
import type { ReviewRenderer } from '../render/reviewRenderer';
import { AssistantIndex, MAX_ASSISTANTS, PRIMARY_DIR, type AssistantFolders } from './assistantIndex';
import { Conversation } from './conversation';
import { describeDrop, HistoryBudget, type HistoryDrop } from './historyBudget';
import { ReviewStore, type ReviewChange } from './reviewStore';
import type { FeedbackItem } from '../../../shared/protocol';

/** What each assistant's review needs from the editor: its findings, anchored in the code. */
export interface FindingsAttachment {
  readonly findings: ReviewFindings;
  /** Resolves once what the findings remember is on disk. */
  dispose(): Promise<void> | void;
}

export interface AssistantReviewsOptions {
  /** The storage folder; undefined keeps everything in memory (tests). */
  readonly root: string | undefined;
  readonly historySize: number;
  /** What all assistants' earlier reviews may hold together (historyBudget.ts; tests set a small one). */
  readonly maxHistoryBytes?: number;
  readonly log: (message: string) => void;
  readonly renderer: Pick<ReviewRenderer, 'render' | 'renderFragment'> & Partial<Pick<ReviewRenderer, 'keepOnly'>>;
  readonly attachFindings: (review: AssistantReview) => FindingsAttachment;
}

export class AssistantReview {
  /** Set once the anchors and the findings are attached (right after the review is made). */
  findings!: ReviewFindings;
  readonly history: ReviewHistory;
  /** A large review of this assistant's that is still being rendered, shown meanwhile. */
  readonly incoming = new IncomingReview();

  constructor(
    /** Identifies the review in the window (the tab): its folder, '' for the first assistant's. */
    readonly key: string,
    /** The assistant's MCP client name; undefined until the first assistant says its name. */
    public name: string | undefined,
    readonly store: ReviewStore,
    readonly conversation: Conversation,
    /** Where its files are; undefined when kept in memory. */
    readonly folders: AssistantFolders | undefined,
    renderer: Pick<ReviewRenderer, 'render' | 'renderFragment'>,
  ) {
    this.history = new ReviewHistory(store, renderer, (id) => conversation.stateOf(id));
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

export class AssistantReviews {
  private readonly reviews: AssistantReview[] = [];
  private readonly attachments: FindingsAttachment[] = [];
  private readonly subscriptions: IDisposable[] = [];
  private activeReview: AssistantReview;
  /** Assistants whose review is being set up, so that two first calls at once make one. */
  private readonly opening = new Map<string, Promise<AssistantReview>>();
  private readonly changed = new Emitter<AssistantReviewChange>();
  private readonly activeChanged = new Emitter<AssistantReview>();
  private readonly feedbackAdded = new Emitter<{ review: AssistantReview; item: FeedbackItem }>();
  private readonly listChanged = new Emitter<void>();
  private readonly incomingChanged = new Emitter<AssistantReview>();
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
    private readonly options: AssistantReviewsOptions,
    private readonly index: AssistantIndex,
    private readonly budget: HistoryBudget,
    primary: AssistantReview,
  ) {
    this.activeReview = primary;
    this.onDidDropHistory = budget.onDidDrop;
    this.subscriptions.push(
      budget,
      budget.onDidDrop((drop) => options.log(describeDrop(drop))),
    );
  }

  static async open(options: AssistantReviewsOptions): Promise<AssistantReviews> {
    const index = options.root ? await AssistantIndex.load(options.root, options.log) : AssistantIndex.inMemory();
    // One budget for every assistant's earlier reviews in this workspace.
    const budget = new HistoryBudget(options.maxHistoryBytes);
    const primaryEntry = index.all.find((entry) => entry.dir === PRIMARY_DIR);
    const primary = await openReview(options, budget, index.folders(PRIMARY_DIR), PRIMARY_DIR, primaryEntry?.name);
    // Before the list existed, the first assistant was the one its current review names.
    primary.name ??= primary.store.current?.assistant;
    const reviews = new AssistantReviews(options, index, budget, primary);
    reviews.adopt(primary);
    const others = await Promise.all(
      index.all
        .filter((entry) => entry.dir !== PRIMARY_DIR)
        .map((entry) => openReview(options, budget, index.folders(entry.dir), entry.dir, entry.name)),
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

  /** Resolves when every store's last write is done, for `deactivate`. */
  async dispose(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.dispose();
    await Promise.all(this.attachments.map((attachment) => attachment.dispose()));
    this.changed.dispose();
    this.activeChanged.dispose();
    this.feedbackAdded.dispose();
    this.listChanged.dispose();
    this.incomingChanged.dispose();
    await Promise.all(
      this.reviews.map(async (review) => {
        review.conversation.dispose();
        review.incoming.dispose();
        await review.store.dispose();
      }),
    );
  }

  private async add(name: string): Promise<AssistantReview> {
    if (this.primary.name === undefined) {
      // The window's first assistant to say its name takes the first review.
      await this.index.add({ name, dir: PRIMARY_DIR });
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
    const review = await openReview(this.options, this.budget, this.index.folders(dir), dir, name);
    // Listed only once its folders could be read, and before its first reply says "done".
    await this.index.add({ name, dir });
    this.adopt(review);
    this.listChanged.fire();
    return review;
  }

  private adopt(review: AssistantReview): void {
    const attachment = this.options.attachFindings(review);
    review.findings = attachment.findings;
    this.reviews.push(review);
    this.attachments.push(attachment);
    this.subscriptions.push(
      review.store.onDidChange((change) => {
        // What was replaced is no longer drawn from: its render goes before the new one is made.
        this.options.renderer.keepOnly?.(this.reviews.flatMap((each) => each.store.current ?? []));
        // A new review is what the user wants to see: its tab comes to the front.
        if (change.kind === 'replace') this.activate(review);
        this.changed.fire({ review, change });
        if (change.kind === 'replace' || change.kind === 'clear') this.listChanged.fire();
      }),
      review.conversation.onDidAdd((item) => this.feedbackAdded.fire({ review, item })),
      review.incoming.onDidChange(() => this.incomingChanged.fire(review)),
    );
  }

  private activate(review: AssistantReview): void {
    if (review === this.activeReview) return;
    this.activeReview = review;
    this.activeChanged.fire(review);
  }
}

async function openReview(
  options: AssistantReviewsOptions,
  budget: HistoryBudget,
  folders: AssistantFolders | undefined,
  key: string,
  name: string | undefined,
): Promise<AssistantReview> {
  const store = folders
    ? await ReviewStore.open({ directory: folders.reviews, historySize: options.historySize, log: options.log, budget })
    : ReviewStore.inMemory({ historySize: options.historySize, budget });
  const conversation = folders ? await Conversation.open(folders.conversation, options.log) : Conversation.inMemory();
  return new AssistantReview(key, name, store, conversation, folders, options.renderer);
}

function newer(a: AssistantReview, b: AssistantReview): number {
  return Date.parse(a.store.current?.updatedAt ?? '') - Date.parse(b.store.current?.updatedAt ?? '') || 0;
}
