// What the user gives back about a review, as get-review-feedback and await-review-feedback return
// it: replies, changes of a finding's state and messages, in the order they happened, behind a cursor.

import { z } from 'zod';
import { MAX_FEEDBACK_TEXT } from '../findingTerms';
import { Assistant, FindingState } from './reviews';

export { MAX_FEEDBACK_TEXT };

/**
 * Who gave an item. `window`: the user, in the VS Code window (the panel, a comment thread, a
 * command). `chat`: the user, in an assistant's chat, through Redline's view there. `import`: a
 * file the user opened (a SARIF log): its words are its writer's, never the user's.
 */
export const FeedbackSource = z.enum(['window', 'chat', 'import']);
export type FeedbackSource = z.infer<typeof FeedbackSource>;

/** An origin longer than this is cut: it names a file and the tool that wrote it. */
export const MAX_FEEDBACK_ORIGIN = 300;

/** One thing the user said or decided about the review, in the order they happened. */
export const FeedbackItem = z.object({
  /** Its place in the window's feedback: also a cursor. */
  id: z.string(),
  kind: z.enum(['reply', 'state', 'message']),
  findingId: z.string().optional(),
  text: z.string().max(MAX_FEEDBACK_TEXT).optional(),
  state: FindingState.optional(),
  /** The finding's reference, so the assistant need not look it up. */
  reference: z.string().optional(),
  at: z.string(),
  /** Absent on items kept before sources were recorded: those were given in the window. */
  source: FeedbackSource.optional(),
  /** For an imported item, where it came from: "imported from results.sarif, written by CodeQL 2.19.0". */
  origin: z.string().max(MAX_FEEDBACK_ORIGIN).optional(),
});
export type FeedbackItem = z.infer<typeof FeedbackItem>;

/** A cursor is the id of the last item read; absent, everything kept is returned. */
const Cursor = z.string().regex(/^\d{1,15}$/, 'a cursor is a value of "cursor" from an earlier feedback result');

export const GetReviewFeedbackParams = z.object({ since: Cursor.optional(), assistant: Assistant }).strict();
export type GetReviewFeedbackParams = z.infer<typeof GetReviewFeedbackParams>;

/**
 * The items of one answer, as JSON. The window keeps 2,000 items of up to 16 Ki characters, which
 * JSON can make six times larger and the MCP result carries twice (text and structured content):
 * all of them at once would be a line no client reads, and far more than the 25,000 tokens Claude
 * Code hands a model. Past this, the answer stops at an item (always taking one) and says `more`,
 * and its cursor reads on from there.
 */
export const FEEDBACK_PAGE_BYTES = 64 * 1024;

export const GetReviewFeedbackResult = z.object({
  /** Pass as `since` next time to get only what is newer. */
  cursor: z.string(),
  items: z.array(FeedbackItem),
  /** Set when items older than the oldest kept were asked for and are gone. */
  truncated: z.boolean().optional(),
  /** Set when newer items are waiting beyond this answer's size: ask again with `cursor`. */
  more: z.boolean().optional(),
});
export type GetReviewFeedbackResult = z.infer<typeof GetReviewFeedbackResult>;
