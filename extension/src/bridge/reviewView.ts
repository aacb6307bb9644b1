// What the review's view in a chat asks of the window (shared/protocol/chatView.ts): the caller's
// review as the view lists it, and the user's answer to one of its findings, recorded in the same
// conversation as an answer in the panel or a thread, with the source "chat". Plain TypeScript.

import {
  ErrorCode,
  FINDING_SEVERITIES,
  IpcError,
  VIEW_EXCERPT_CHARS,
  VIEW_EXCERPTS_CHARS,
  VIEW_TEXT_CHARS,
  type AnswerFindingResult,
  type FeedbackItem,
  type GetReviewViewResult,
  type ValidParamsOf,
  type ViewFinding,
} from '../../../shared/protocol';
import { clipText } from '../../../shared/textCut';
import type { AssistantReviews } from '../review/assistantReviews';
import type { ShownFinding } from '../review/reviewFindings';

type ReviewsSide = Pick<AssistantReviews, 'lookup'>;

/** The lines of a finding the view shows under its title, at most. */
const EXCERPT_LINES = 3;
/** A list item's marker, and the blockquote and heading marks, which the view has no use for. */
const LEADING_MARKS = /^\s*(?:[-*+]|\d{1,9}[.)])?\s*(?:>\s*)*(?:#{1,6}\s+)?/;

export async function getReviewView(
  reviews: ReviewsSide,
  params: ValidParamsOf<'get-review-view'>,
): Promise<GetReviewViewResult> {
  const counts = Object.fromEntries([...FINDING_SEVERITIES, 'none'].map((label) => [label, 0])) as Record<
    keyof GetReviewViewResult['counts'],
    number
  >;
  const owner = reviews.lookup(params.assistant);
  const review = owner?.store.current;
  if (!owner || !review) return { revision: 0, counts, findings: [] };
  // Positions are looked up now, so they say where the code is after the user's edits.
  const shown = await owner.findings.currentShown();
  const replies = new Map<string, number>();
  for (const item of owner.conversation.since().items)
    if (item.kind === 'reply' && item.findingId) replies.set(item.findingId, (replies.get(item.findingId) ?? 0) + 1);
  let excerptBudget = VIEW_EXCERPTS_CHARS;
  const findings = shown.map((finding): ViewFinding => {
    counts[finding.severity ?? 'none']++;
    const excerpt = excerptBudget > 0 ? excerptOf(finding.markdown) : undefined;
    excerptBudget -= excerpt?.length ?? 0;
    return {
      ...placeOf(finding),
      severity: finding.severity,
      state: finding.state,
      stale: finding.stale,
      ...(excerpt ? { excerpt } : {}),
      replies: replies.get(finding.id) ?? 0,
    };
  });
  return { revision: review.revision, title: review.title, updatedAt: review.updatedAt, counts, findings };
}

/** The user's decision or reply, from the view; each item on disk before this resolves. */
export async function answerFinding(
  reviews: ReviewsSide,
  params: ValidParamsOf<'answer-finding'>,
): Promise<AnswerFindingResult> {
  const owner = reviews.lookup(params.assistant);
  const finding = owner?.findings.find(params.findingId);
  if (!owner || !finding) {
    throw new IpcError(
      ErrorCode.NotFound,
      `The review shown has no finding "${params.findingId.slice(0, 40)}": it was replaced or cleared. Read it again with get-review-view.`,
    );
  }
  const { conversation } = owner;
  const about = { findingId: finding.id, reference: finding.reference, source: 'chat' as const };
  const items: FeedbackItem[] = [];
  const reply = params.reply?.trim();
  if (reply) items.push(await conversation.add({ kind: 'reply', text: reply, ...about }));
  if (params.state && conversation.stateOf(finding.id) !== params.state)
    items.push(await conversation.add({ kind: 'state', state: params.state, ...about }));
  return { findingId: finding.id, state: conversation.stateOf(finding.id), items };
}

function placeOf(finding: ShownFinding): Pick<ViewFinding, 'id' | 'title' | 'reference' | 'file' | 'line' | 'endLine'> {
  return {
    id: finding.id,
    title: clipText(finding.title, VIEW_TEXT_CHARS),
    reference: finding.reference,
    file: finding.file,
    line: finding.line,
    endLine: finding.endLine,
  };
}

/**
 * The finding's first lines after its title (which is its first line), as the review wrote them,
 * without the marks that make them a list item; empty for a finding of one line.
 */
export function excerptOf(markdown: string): string {
  const lines: string[] = [];
  // Only the first lines are looked at: a finding may be a page long.
  for (const line of markdown
    .slice(0, VIEW_EXCERPT_CHARS * 4)
    .split('\n')
    .slice(1)) {
    const text = line.replace(LEADING_MARKS, '').trim();
    if (text !== '') lines.push(text);
    if (lines.length === EXCERPT_LINES) break;
  }
  return clipText(lines.join('\n'), VIEW_EXCERPT_CHARS);
}
