// What the user is told once a review is published: what was added, changed and left.

import type { PublishOutcome } from './reviewPublisher';

/** "pull request #12: added 3 comments and 2 findings in the review's body; left 4 findings already there unchanged." */
export function outcomeText(outcome: PublishOutcome): string {
  const parts: string[] = [];
  if (outcome.addedComments + outcome.addedInBody > 0) {
    parts.push(
      `added ${plural(outcome.addedComments, 'comment')} and ${plural(outcome.addedInBody, 'finding')} in the review's body`,
    );
  }
  if (outcome.changed > 0) parts.push(`updated ${plural(outcome.changed, 'finding')} whose text changed`);
  if (outcome.left > 0) parts.push(`left ${plural(outcome.left, 'finding')} already there unchanged`);
  if (outcome.leftOut > 0)
    parts.push(
      `left out ${plural(outcome.leftOut, 'finding')} (outside the repository, or past the body's length limit)`,
    );
  const what = parts.length > 0 ? parts.join('; ') : 'nothing to change';
  return `pull request #${outcome.pullRequest}: ${what}.`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
