// The current review's findings as the user and the assistant see them: where the renderer found
// them, where their code is now (findingAnchors.ts) and what the user decided (the conversation).
// The threads, the Problems view and the panel all draw from the list this publishes.

import type { Finding } from '../../../shared/protocol';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import { Emitter } from '../emitter';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { Conversation } from './conversation';
import type { Review, ReviewStore } from './reviewStore';
import type { AnchoredPosition, FindingAnchors } from './findingAnchors';
import type { ReviewFinding } from '../render/findingExtraction';
import type { FindingsFile } from './findingsFile';

/** A finding with what the editor needs to show it. */
export interface ShownFinding extends Finding {
  /** The finding's markdown, as the review wrote it. */
  readonly markdown: string;
  /** The assistant that presented it (MCP clientInfo), if it said. */
  readonly assistant?: string;
  /** What its ```suggestion blocks propose in place of its lines. */
  readonly suggestions: readonly string[];
  /** Its lines as the review wrote them (`line` and `endLine` are where that code is now). */
  readonly writtenLine: number;
  readonly writtenEndLine: number;
}

/** How long a burst of changes (appends, keystrokes) is let settle before the views are redrawn. */
const SETTLE_MS = 50;

export interface ReviewFindingsOptions {
  readonly store: ReviewStore;
  readonly renderer: ReviewRenderer;
  readonly conversation: Conversation;
  /** Owned from then on: released after the findings. */
  readonly anchors: FindingAnchors;
  readonly log: Logger;
  /**
   * Resolves when the views may be redrawn for this revision. The window lets the panel paint a
   * new review first: a thousand findings' threads and diagnostics would hold the review back.
   */
  readonly readyToPublish?: (revision: number) => Promise<void>;
  /** The findings as last found, kept on disk: a window that starts does not render the review to know them. */
  readonly kept?: FindingsFile;
}

export class ReviewFindings extends Disposable {
  private shown: readonly ShownFinding[] = [];
  private rendered: { revision: number; findings: readonly ReviewFinding[]; review: Review } | undefined;
  private readonly changed = new Emitter<readonly ShownFinding[]>();
  /** Fires with the whole list whenever the review, a position or a state changed. */
  readonly onDidChange = this.changed.event;
  private settle: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private readonly store: ReviewStore;
  private readonly renderer: ReviewRenderer;
  private readonly conversation: Conversation;
  private readonly anchors: FindingAnchors;
  private readonly log: Logger;
  private readonly readyToPublish: (revision: number) => Promise<void>;
  private readonly kept: FindingsFile | undefined;

  constructor(options: ReviewFindingsOptions) {
    super();
    this.store = options.store;
    this.renderer = options.renderer;
    this.conversation = options.conversation;
    this.anchors = options.anchors;
    this.log = options.log;
    this.readyToPublish = options.readyToPublish ?? (() => Promise.resolve());
    this.kept = options.kept;
    this.register(this.anchors);
    this.register(this.changed);
    this.register(toDisposable(() => clearTimeout(this.settle)));
    this.register(this.store.onDidChange(() => this.schedule()));
    this.register(this.anchors.onDidMove(() => this.schedule()));
    this.register(this.conversation.onDidAdd((item) => item.kind === 'state' && this.schedule()));
    this.schedule();
  }

  /** The list as last published. */
  get all(): readonly ShownFinding[] {
    return this.shown;
  }

  find(id: string): ShownFinding | undefined {
    return this.shown.find((finding) => finding.id === id);
  }

  /** The current review's findings, each looked for again in its file as it is now (for get-review). */
  async current(): Promise<Finding[]> {
    return (await this.currentShown()).map(toFinding);
  }

  /** As current(), with each finding's markdown and suggestions (for the exports). */
  async currentShown(): Promise<ShownFinding[]> {
    await this.update();
    return this.describe(this.rendered?.findings ?? [], await this.anchors.positions());
  }

  /**
   * Findings just rendered from what an assistant sent (for present-review's reply). Their lines
   * are remembered now, before the user can change the file, so later edits can be followed.
   */
  async presented(findings: readonly ReviewFinding[]): Promise<Finding[]> {
    await this.anchors.remember(findings);
    return this.describe(findings, this.anchors.known()).map(toFinding);
  }

  private schedule(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.update()
        .then(() => this.readyToPublish(this.rendered?.revision ?? 0))
        .then(() => {
          this.shown = this.describe(this.rendered?.findings ?? [], this.anchors.known());
          this.changed.fire(this.shown);
        })
        .catch((error: unknown) => this.log.error('Could not update the findings', { error }));
    }, SETTLE_MS);
  }

  /** Brings `rendered` and the anchors up to the store's current review; one update at a time. */
  private update(): Promise<void> {
    this.refreshing = this.refreshing
      .catch(() => undefined)
      .then(async () => {
        const review = this.store.current;
        if (!review) {
          this.rendered = undefined;
          await this.anchors.track([]);
          return;
        }
        if (this.rendered?.revision === review.revision) return;
        const findings =
          (this.rendered === undefined && (await this.kept?.load(review.revision))) ||
          (await this.renderFindings(review));
        await this.anchors.track(findings);
        this.rendered = { revision: review.revision, findings, review };
      });
    return this.refreshing;
  }

  private async renderFindings(review: Review): Promise<ReviewFinding[]> {
    const { findings } = await this.renderer.render(review);
    void this.kept?.save(review.revision, findings);
    return findings;
  }

  private describe(findings: readonly ReviewFinding[], positions: Map<string, AnchoredPosition>): ShownFinding[] {
    const assistant = this.rendered?.review.assistant;
    return findings.map((finding) => {
      const position = positions.get(finding.id);
      return {
        id: finding.id,
        severity: finding.severity,
        title: finding.title,
        reference: finding.reference,
        file: finding.file,
        line: position?.line ?? finding.line,
        endLine: position?.endLine ?? finding.endLine,
        writtenLine: finding.line,
        writtenEndLine: finding.endLine,
        state: this.conversation.stateOf(finding.id),
        stale: position?.stale ?? false,
        markdown: finding.markdown,
        assistant,
        suggestions: finding.suggestions,
      };
    });
  }
}

function toFinding({ id, severity, title, reference, file, line, endLine, state, stale }: ShownFinding): Finding {
  return { id, severity, title, reference, file, line, endLine, state, stale };
}
