// The window's earlier reviews as the user and the assistant reach them: listed, read back, restored
// as the current review, and compared with the review before them. The store keeps the reviews
// and the conversation keeps what the user decided; this only puts the two together.

import type { FindingState, ReviewComparison } from '../../../shared/protocol';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { HistoryEntry, Review, ReviewStore } from './reviewStore';
import { compareFindings } from './findingComparison';

/** What a comparison reads of a review: the current one, or one shown from the history. */
export type ComparableReview = Pick<Review, 'revision' | 'markdown' | 'cwd'>;

export class ReviewHistory {
  constructor(
    private readonly store: Pick<ReviewStore, 'current' | 'listHistory' | 'readHistory' | 'restore'>,
    private readonly renderer: Pick<ReviewRenderer, 'render' | 'renderFragment'>,
    private readonly stateOf: (findingId: string) => FindingState,
  ) {}

  /** Earlier reviews, newest first, without their text. */
  list(): Promise<HistoryEntry[]> {
    return this.store.listHistory();
  }

  /** One earlier review; undefined once it has left the history. */
  read(revision: number): Promise<Review | undefined> {
    return this.store.readHistory(revision);
  }

  /** Presents an earlier review again as the current one (a new revision); undefined if it is gone. */
  restore(revision: number): Promise<Review | undefined> {
    return this.store.restore(revision);
  }

  /**
   * Compares `review` (the current one unless given) with the newest review older than it.
   * Undefined when there is nothing to compare: no review, or none before it.
   */
  async compareWithPrevious(
    review: ComparableReview | undefined = this.store.current,
  ): Promise<ReviewComparison | undefined> {
    if (!review) return undefined;
    const entry = (await this.store.listHistory()).find((earlier) => earlier.revision < review.revision);
    const previous = entry && (await this.store.readHistory(entry.revision));
    if (!previous) return undefined;
    // The current review's render is the one the panel and the findings share (it is cached);
    // an earlier one is rendered on the side so that it does not push the current one out.
    const rendered =
      review === this.store.current
        ? this.renderer.render(review)
        : this.renderer.renderFragment(review.markdown, review.cwd);
    const [now, before] = await Promise.all([rendered, this.renderer.renderFragment(previous.markdown, previous.cwd)]);
    return {
      revision: review.revision,
      previous: { revision: previous.revision, title: previous.title, updatedAt: previous.updatedAt },
      ...compareFindings(before.findings, now.findings, this.stateOf),
    };
  }
}
