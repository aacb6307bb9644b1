// get-review: the caller's review a page at a time (reviewPages.ts), with where its findings' code
// is now, and on the first page, when asked, how they stand against the review before it.

import type { GetReviewParams, GetReviewResult, ReviewComparison } from '../../../shared/protocol';
import type { AssistantReviews } from '../review/assistantReviews';
import type { Review } from '../review/review';
import { boundedComparison, decodeCursor, reviewPage } from './reviewPages';

type ReviewsSide = Pick<AssistantReviews, 'lookup'>;
type Owner = NonNullable<ReturnType<ReviewsSide['lookup']>>;

export async function getReviewPage(reviews: ReviewsSide, params: GetReviewParams): Promise<GetReviewResult> {
  const owner = reviews.lookup(params.assistant);
  const review = owner?.store.current;
  // Positions are looked up now, so they say where the code is after the user's edits.
  const findings = owner && review ? await owner.findings.current() : [];
  // A bad cursor is refused before any page is cut.
  const start = params.cursor === undefined ? undefined : decodeCursor(params.cursor, review, findings.length);
  const comparison =
    params.compareWithPrevious && start === undefined ? { comparison: await comparisonFor(owner, review) } : {};
  if (!owner || !review) return { revision: 0, markdown: '', sections: [], findings: [], ...comparison };
  return {
    revision: review.revision,
    title: review.title,
    updatedAt: review.updatedAt,
    ...reviewPage(review, findings, start),
    ...comparison,
  };
}

/** null when there is no earlier review to compare with. */
async function comparisonFor(owner: Owner | undefined, review: Review | undefined): Promise<ReviewComparison | null> {
  const comparison = owner && review ? await owner.history.compareWithPrevious(review) : undefined;
  return comparison ? boundedComparison(comparison) : null;
}
