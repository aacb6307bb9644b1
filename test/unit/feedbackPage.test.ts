// get-review-feedback's answer held to its size: as many of the oldest items as fit, a cursor at
// the last of them, and `more` while newer ones wait.

import type { FeedbackItem } from '../../shared/protocol';
import { feedbackPage } from '../../extension/src/bridge/feedbackPage';

const item = (id: number, text = 'ok'): FeedbackItem => ({
  id: String(id),
  kind: 'message',
  text,
  at: '2026-01-01T00:00:00.000Z',
});

describe("get-review-feedback's answer", () => {
  it('is left whole when it fits', () => {
    const answer = { cursor: '3', items: [item(1), item(2), item(3)] };
    expect(feedbackPage(answer)).toBe(answer);
  });

  it('stops at the item that would pass the budget, with the cursor at the last one given', () => {
    const items = Array.from({ length: 10 }, (_, i) => item(i + 1, 'x'.repeat(100)));
    const bytes = Buffer.byteLength(JSON.stringify(items[0])) + 1;
    expect(feedbackPage({ cursor: '10', items }, bytes * 3)).toEqual({
      cursor: '3',
      items: items.slice(0, 3),
      more: true,
    });
  });

  it('gives one item even when it alone is larger than the budget, so that every call moves on', () => {
    const items = [item(7, 'x'.repeat(1000)), item(8)];
    expect(feedbackPage({ cursor: '8', items, truncated: true }, 10)).toEqual({
      cursor: '7',
      items: [items[0]],
      truncated: true,
      more: true,
    });
  });
});
