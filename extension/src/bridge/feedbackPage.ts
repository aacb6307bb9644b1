// get-review-feedback's answer held to FEEDBACK_PAGE_BYTES: the oldest items first, as many as
// fit, and a cursor at the last of them, so that the next call reads on where this one stopped.

import { FEEDBACK_PAGE_BYTES, type GetReviewFeedbackResult } from '../../../shared/protocol';

export function feedbackPage(result: GetReviewFeedbackResult, budget = FEEDBACK_PAGE_BYTES): GetReviewFeedbackResult {
  let used = 0;
  let kept = 0;
  for (const item of result.items) {
    used += Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    // At least one item, so that every call moves on (one item is at most 16 Ki characters).
    if (used > budget && kept > 0) break;
    kept++;
  }
  if (kept === result.items.length) return result;
  return { ...result, cursor: result.items[kept - 1].id, items: result.items.slice(0, kept), more: true };
}
