// The addresses of Redline's MCP resources, shared by the resources, their subscriptions and the
// prompts that point at them.

export const CURRENT_REVIEW_URI = 'redline://review/current';
/** The same review as a SARIF 2.1.0 log, findings where their code is now and the user's answers with them. */
export const CURRENT_REVIEW_SARIF_URI = 'redline://review/current.sarif';
export const SELECTION_URI = 'redline://selection';
/** `index` is an earlier review's revision: it keeps naming the same review as others are added. */
export const EARLIER_REVIEW_TEMPLATE = 'redline://review/history/{index}';

const EARLIER_REVIEW = /^redline:\/\/review\/history\/([1-9][0-9]{0,14})$/;

export function earlierReviewUri(revision: number): string {
  return `redline://review/history/${revision}`;
}

/** The revision an earlier review's address names; undefined when `uri` is not one. */
export function earlierReviewRevision(uri: string): number | undefined {
  const match = EARLIER_REVIEW.exec(uri);
  return match ? Number(match[1]) : undefined;
}

/** Whether `uri` is one of Redline's resources, and so one a client may subscribe to. */
export function isRedlineResource(uri: string): boolean {
  return (
    uri === CURRENT_REVIEW_URI ||
    uri === CURRENT_REVIEW_SARIF_URI ||
    uri === SELECTION_URI ||
    earlierReviewRevision(uri) !== undefined
  );
}
