// What the window tells every connected MCP server about reviews without being asked: one changed,
// the user answered it, or the history changed. Each event names whose review it is about, and
// each server passes on only its own assistant's (reviewEventIsFor), as MCP resource notifications
// for its subscribers. Payloads say only that something changed: a subscriber reads the resource
// to learn what, with a call that names its assistant.

import type { EventName, EventPayload } from '../../../shared/protocol';
import { DisposableStore, type IDisposable } from '../../../shared/lifecycle';
import type { AssistantReview, AssistantReviews } from '../review/assistantReviews';

export type Broadcast = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export function broadcastReviewEvents(
  reviews: Pick<AssistantReviews, 'onDidChangeReview' | 'onDidAddFeedback' | 'primary'>,
  broadcast: Broadcast,
): IDisposable {
  const ownerOf = (review: AssistantReview) => ({
    ...(review.name !== undefined ? { assistant: review.name } : {}),
    primary: review === reviews.primary,
  });
  const subscriptions = new DisposableStore();
  subscriptions.add(
    reviews.onDidChangeReview(({ review, change }) => {
      broadcast('review-changed', { revision: review.store.revision, ...ownerOf(review) });
      // A replace or a clear moves the review it ends into the history.
      if (change.kind === 'replace' || change.kind === 'clear') broadcast('history-changed', ownerOf(review));
    }),
  );
  subscriptions.add(
    reviews.onDidAddFeedback(({ review, item }) =>
      broadcast('feedback-added', { cursor: item.id, ...ownerOf(review) }),
    ),
  );
  return subscriptions;
}
