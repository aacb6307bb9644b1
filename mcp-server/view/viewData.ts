// What the view shows, read from what reaches it: the result of present-review or get-review that
// the host hands it, and get-review-view's answers. All of it is checked against the protocol's
// schemas first: a page in a chat takes nothing on trust, not even from its own server.

import { GetReviewViewResult, type ViewFinding } from '../../shared/protocol/chatView';
import { Finding } from '../../shared/protocol/findings';
import { z } from 'zod';

export type ReviewView = GetReviewViewResult;
export type { ViewFinding };

/** What present-review and get-review return that the view can show before it asks for more. */
const LinkedResult = z.object({
  revision: z.number().int().min(0),
  title: z.string().optional(),
  findings: z.array(Finding),
});

/** The view of get-review-view's structured content, or undefined when it is not one. */
export function parseReviewView(structured: unknown): ReviewView | undefined {
  const parsed = GetReviewViewResult.safeParse(structured);
  return parsed.success ? parsed.data : undefined;
}

/** A first view from a linked tool's result: its findings without their lines, until the window answers. */
export function viewFromToolResult(structured: unknown): ReviewView | undefined {
  const parsed = LinkedResult.safeParse(structured);
  if (!parsed.success) return undefined;
  const counts = emptyCounts();
  const findings = parsed.data.findings.map((finding): ViewFinding => {
    counts[finding.severity ?? 'none']++;
    return { ...finding, replies: 0 };
  });
  return { revision: parsed.data.revision, title: parsed.data.title, counts, findings };
}

export function emptyCounts(): ReviewView['counts'] {
  return { blocking: 0, bug: 0, risk: 0, suggestion: 0, nit: 0, question: 0, praise: 0, none: 0 };
}

/** The text of a failed tool result, for the status line. */
export function failureText(content: unknown): string {
  const first = Array.isArray(content) ? content[0] : undefined;
  const text = typeof first === 'object' && first !== null ? (first as { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text.slice(0, 500) : 'The call failed.';
}
