// A review's findings and whose review it is: the parts of the review's payloads (reviews.ts, which
// exports them too) that a page without Node reads as well, the review's view in a chat.

import { z } from 'zod';
import { FINDING_SEVERITIES, FINDING_STATES } from '../findingTerms';
import { MAX_ASSISTANT_CHARS } from './limits';

export const FindingState = z.enum(FINDING_STATES);
export type FindingState = z.infer<typeof FindingState>;

/** A list item of the review whose first file reference resolved (a paragraph also needs a severity label), anchored there. */
export const Finding = z.object({
  /** Stable: the same text keeps its id through appends and section updates. */
  id: z.string(),
  severity: z.enum(FINDING_SEVERITIES).nullable(),
  title: z.string(),
  /** The reference as written in the review. */
  reference: z.string(),
  file: z.string(),
  /** 1-based lines where that code is now, which moves as the user edits. */
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  state: FindingState,
  /** The code the finding pointed at is gone, or changed past recognition. */
  stale: z.boolean(),
});
export type Finding = z.infer<typeof Finding>;

/**
 * The calling assistant's name, from MCP clientInfo. Each assistant has its own review in the
 * window (a tab in the panel), and is the author of its findings in the editor. Absent: the
 * window's first assistant.
 */
export const Assistant = z.string().min(1).max(MAX_ASSISTANT_CHARS).optional();
