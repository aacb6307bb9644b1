// What the review's view in a chat (an MCP App, mcp-server/src/appView/) asks of the window: the
// review as the view shows it, the user's answer to a finding given there, and the panel brought
// to the front. The view's calls reach the MCP server through the chat host, like a model's.

import { z } from 'zod';
import { FINDING_SEVERITIES, MAX_FEEDBACK_TEXT } from '../findingTerms';
import { FeedbackItem } from './feedback';
import { Assistant, Finding, FindingState } from './findings';

/** A finding's first lines in the view are cut here: the view is a summary, the panel has the rest. */
export const VIEW_EXCERPT_CHARS = 280;
/** A finding's title and place are cut here in the view. */
export const VIEW_TEXT_CHARS = 300;
/**
 * The excerpts of one answer together, as characters: past this, findings come without one. A
 * review holds at most MAX_FINDINGS (1,000), so the answer stays under a few megabytes of JSON.
 */
export const VIEW_EXCERPTS_CHARS = 256 * 1024;
/** A finding id as the window makes them: short, so a longer one is no finding of this review. */
const FindingId = z.string().min(1).max(200);

export const ViewFinding = Finding.pick({
  id: true,
  severity: true,
  title: true,
  reference: true,
  file: true,
  line: true,
  endLine: true,
  state: true,
  stale: true,
}).extend({
  /** The finding's first lines after its title, as plain text; absent for one line, and past VIEW_EXCERPTS_CHARS. */
  excerpt: z.string().optional(),
  /** The user's replies to it, how many are kept. */
  replies: z.number().int().min(0),
});
export type ViewFinding = z.infer<typeof ViewFinding>;

export const GetReviewViewParams = z.object({ assistant: Assistant }).strict();
export type GetReviewViewParams = z.infer<typeof GetReviewViewParams>;

export const GetReviewViewResult = z.object({
  /** 0 when this assistant has shown no review in the window. */
  revision: z.number().int().min(0),
  title: z.string().optional(),
  updatedAt: z.string().optional(),
  /** Findings by severity label ("none" for a finding without one). */
  counts: z.record(z.enum([...FINDING_SEVERITIES, 'none']), z.number().int().min(0)),
  findings: z.array(ViewFinding),
});
export type GetReviewViewResult = z.infer<typeof GetReviewViewResult>;

/** What the user can decide in the view; "open" takes a decision back. */
export const ViewDecision = FindingState.exclude(['accepted']);
export type ViewDecision = z.infer<typeof ViewDecision>;

export const AnswerFindingParams = z
  .object({
    findingId: FindingId,
    /** The finding's new state. */
    state: ViewDecision.optional(),
    /** A reply to the finding. */
    reply: z.string().max(MAX_FEEDBACK_TEXT).optional(),
    assistant: Assistant,
  })
  .strict()
  .refine((p) => p.state !== undefined || (p.reply !== undefined && p.reply.trim() !== ''), {
    message: 'answer-finding needs "state" or a "reply" that is not blank',
  });
export type AnswerFindingParams = z.input<typeof AnswerFindingParams>;

export const AnswerFindingResult = z.object({
  findingId: z.string(),
  /** The finding's state once the answer is recorded. */
  state: FindingState,
  /** What was recorded, on disk; empty when the finding already had that state. */
  items: z.array(FeedbackItem),
});
export type AnswerFindingResult = z.infer<typeof AnswerFindingResult>;

export const RevealReviewParams = z.object({ findingId: FindingId.optional(), assistant: Assistant }).strict();
export type RevealReviewParams = z.infer<typeof RevealReviewParams>;

export const RevealReviewResult = z.object({
  /** False when this assistant has no review in the window to show. */
  shown: z.boolean(),
});
export type RevealReviewResult = z.infer<typeof RevealReviewResult>;
