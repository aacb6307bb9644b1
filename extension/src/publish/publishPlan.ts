// What publishing must send, worked out from what the pull request already holds: a finding whose
// marker is already there is updated in place when its text changed and left when it did not; only
// the others are added. So publishing twice, or again after a failure part-way, adds nothing twice.
// A finding finds what was written for it by its key first; then, among what no finding claimed, by
// a key it had before (its fingerprint alone, or with its own hash: findingPlacement.ts), preferring
// the finding whose text the comment holds. Each comment or section goes to one finding at most.

import type { Placement } from './findingPlacement';
import {
  bodySection,
  bodySections,
  commentKey,
  commentText,
  replaceSection,
  type SectionLink,
} from './publishMarkdown';

/** A review comment already on the pull request, written by the signed-in user. */
export interface ExistingComment {
  readonly id: number;
  readonly body: string;
}

/** A review already on the pull request, written by the signed-in user. */
export interface ExistingReview {
  readonly id: number;
  readonly body: string;
}

export type CommentPlacement = Extract<Placement, { kind: 'comment' }>;
export type BodyPlacement = Extract<Placement, { kind: 'body' }>;

export interface PublishPlan {
  /** Findings not yet on the pull request, for the new review's comments. */
  readonly newComments: readonly { readonly placement: CommentPlacement; readonly body: string }[];
  /** Findings not yet on the pull request, for the new review's body. */
  readonly newSections: readonly { readonly placement: BodyPlacement; readonly section: string }[];
  readonly commentUpdates: readonly { readonly id: number; readonly key: string; readonly body: string }[];
  /** Earlier reviews whose body holds a finding whose text changed: each one's whole new body. */
  readonly reviewUpdates: readonly { readonly id: number; readonly keys: readonly string[]; readonly body: string }[];
  /** Keys already on the pull request with the same text. */
  readonly unchanged: readonly string[];
}

export interface PlanInput {
  readonly placements: readonly Placement[];
  readonly comments: readonly ExistingComment[];
  readonly reviews: readonly ExistingReview[];
  readonly linkOf: (placement: BodyPlacement) => SectionLink;
}

export function planPublish(input: PlanInput): PublishPlan {
  const commentsByKey = new Map<string, ExistingComment>();
  for (const comment of input.comments) {
    const key = commentKey(comment.body);
    if (key !== undefined && !commentsByKey.has(key)) commentsByKey.set(key, comment);
  }
  const reviewBodies = new Map<number, string>();
  const reviewOfKey = new Map<string, { id: number; section: string }>();
  for (const review of input.reviews) {
    reviewBodies.set(review.id, review.body);
    for (const [key, section] of bodySections(review.body))
      if (!reviewOfKey.has(key)) reviewOfKey.set(key, { id: review.id, section });
  }
  const found = foundKeys(input.placements, (key) => commentsByKey.get(key)?.body ?? reviewOfKey.get(key)?.section);

  const plan = {
    newComments: [] as Array<PublishPlan['newComments'][number]>,
    newSections: [] as Array<PublishPlan['newSections'][number]>,
    commentUpdates: [] as Array<PublishPlan['commentUpdates'][number]>,
    unchanged: [] as string[],
  };
  const changedReviews = new Map<number, string[]>();
  for (const placement of input.placements) {
    const { key } = placement.item;
    const text = placement.kind === 'comment' ? commentText(placement.item) : undefined;
    const section =
      placement.kind === 'body' ? bodySection(placement.item, placement.reason, input.linkOf(placement)) : undefined;
    const written = found.get(placement.item);
    const comment = written === undefined ? undefined : commentsByKey.get(written);
    const inReview = written === undefined || comment ? undefined : reviewOfKey.get(written);
    if (comment) {
      // A finding keeps the place it was first published in: GitHub cannot move a comment.
      const wanted = text ?? commentText(placement.item);
      if (sameText(comment.body, wanted)) plan.unchanged.push(key);
      else plan.commentUpdates.push({ id: comment.id, key, body: wanted });
    } else if (inReview) {
      const wanted =
        section ??
        bodySection(
          placement.item,
          'outside-diff',
          input.linkOf({ kind: 'body', item: placement.item, reason: 'outside-diff' }),
        );
      if (sameSection(inReview.section, wanted) && written === key) plan.unchanged.push(key);
      else {
        const body = replaceSection(reviewBodies.get(inReview.id) ?? '', written!, wanted);
        reviewBodies.set(inReview.id, body);
        changedReviews.set(inReview.id, [...(changedReviews.get(inReview.id) ?? []), key]);
      }
    } else if (placement.kind === 'comment') plan.newComments.push({ placement, body: text as string });
    else plan.newSections.push({ placement, section: section as string });
  }
  const reviewUpdates = [...changedReviews].map(([id, keys]) => ({ id, keys, body: reviewBodies.get(id) as string }));
  return { ...plan, reviewUpdates };
}

/**
 * The key each placement's earlier comment or section was written under, if any: its own key
 * first; then, for what is left, a key it had before, the one whose text the writing holds first.
 */
function foundKeys(
  placements: readonly Placement[],
  writingOf: (key: string) => string | undefined,
): Map<Placement['item'], string> {
  const found = new Map<Placement['item'], string>();
  const claimed = new Set<string>();
  for (const { item } of placements) {
    if (writingOf(item.key) !== undefined && !claimed.has(item.key)) {
      found.set(item, item.key);
      claimed.add(item.key);
    }
  }
  const rest = placements.map((placement) => placement.item).filter((item) => !found.has(item));
  // A finding whose text the writing holds is the one it was written for; then the rest, in order.
  const holds = (item: Placement['item'], key: string) =>
    normalized(writingOf(key) ?? '').includes(normalized(commentText({ ...item, key: '' }).split('\n\n')[0]));
  for (const pass of [true, false]) {
    for (const item of rest) {
      if (found.has(item)) continue;
      const key = item.earlierKeys.find(
        (earlier) => writingOf(earlier) !== undefined && !claimed.has(earlier) && (!pass || holds(item, earlier)),
      );
      if (key === undefined) continue;
      found.set(item, key);
      claimed.add(key);
    }
  }
  return found;
}

function normalized(text: string): string {
  return text.replace(/\r\n/g, '\n').trim();
}

function sameText(a: string, b: string): boolean {
  return normalized(a) === normalized(b);
}

/**
 * Sections are compared by the finding's text alone: the line above it (the link, at the head's
 * commit, and why it is in the body) changes with every push without the finding changing.
 */
function sameSection(a: string, b: string): boolean {
  const text = (section: string) => normalized(section).split('\n\n').slice(1).join('\n\n');
  return text(a) === text(b);
}
