// What the window tells every connected MCP server about reviews without being asked: one changed,
// the user answered it, or the history changed. The servers turn these into MCP resource
// notifications for their subscribers. Payloads say only that something changed: a subscriber
// reads the resource to learn what, with a call that names its assistant.

import type { EventName, EventPayload } from '../../../shared/protocol';
import type { Disposable } from '../events';
import type { AssistantReviews } from '../review/assistantReviews';

export type Broadcast = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export function broadcastReviewEvents(reviews: Pick<AssistantReviews, 'onDidChangeReview' | 'onDidAddFeedback'>, broadcast: Broadcast): Disposable {
  const subscriptions = [
    reviews.onDidChangeReview(({ review, change }) => {
      broadcast('review-changed', { revision: review.store.revision });
      // A replace or a clear moves the review it ends into the history.
      if (change.kind === 'replace' || change.kind === 'clear') broadcast('history-changed', {});
    }),
    reviews.onDidAddFeedback(({ item }) => broadcast('feedback-added', { cursor: item.id })),
  ];
  return { dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) };
}
