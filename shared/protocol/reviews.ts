// The review's payloads: present-review's params and report, its findings, and get-review. What the
// user gives back is in feedback.ts.

import { z } from 'zod';
import { FINDING_SEVERITIES, FINDING_STATES, type FindingSeverity } from '../findingTerms';
import { Assistant, Finding } from './findings';
import { utf8Bytes } from '../byteSize';
import { MAX_CWD_CHARS, MAX_REVIEW_BYTES, MAX_SECTION_CHARS } from './limits';

export const ReviewMode = z.enum(['replace', 'update-section', 'append']);
export type ReviewMode = z.infer<typeof ReviewMode>;

export const Section = z.object({
  level: z.number().int().min(1).max(6),
  title: z.string(),
  /** 1-based line of the heading in the review's markdown. */
  line: z.number().int().min(1),
});
export type Section = z.infer<typeof Section>;

export const BrokenReference = z.object({
  /** The reference as written in the review. */
  reference: z.string(),
  /** 1-based line of the review where it appears. */
  line: z.number().int().min(1),
  reason: z.string(),
});
export type BrokenReference = z.infer<typeof BrokenReference>;

export const ReferenceReport = z.object({
  total: z.number().int().min(0),
  resolved: z.number().int().min(0),
  /** Past the render's I/O budget: neither resolved nor broken, and never to be called broken. Absent means 0. */
  unchecked: z.number().int().min(0).optional(),
  broken: z.array(BrokenReference),
});
export type ReferenceReport = z.infer<typeof ReferenceReport>;

export { FINDING_SEVERITIES, FINDING_STATES, type FindingSeverity };
export { Assistant, Finding, FindingState } from './findings';

/**
 * Markdown with nothing to show: empty, or only whitespace and byte order marks (String.trim
 * removes U+FEFF too). Presenting it would blank the review the user is reading, so the command
 * line and the window both refuse it, in every mode.
 */
export function isBlankReview(markdown: string): boolean {
  return markdown.trim() === '';
}

export const BLANK_REVIEW_MESSAGE =
  "content holds only whitespace: there is nothing to present, and the review shown is left as it is. Send the review's markdown.";

export const PresentReviewParams = z
  .object({
    content: z
      .string()
      .refine((text) => utf8Bytes(text) <= MAX_REVIEW_BYTES, {
        message: `content is larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB`,
      })
      .refine((text) => !isBlankReview(text), { message: BLANK_REVIEW_MESSAGE }),
    mode: ReviewMode.default('replace'),
    section: z.string().min(1).max(MAX_SECTION_CHARS).optional(),
    title: z.string().max(500).optional(),
    /** Where the assistant runs: relative references resolve here first. */
    cwd: z.string().max(MAX_CWD_CHARS).optional(),
    assistant: Assistant,
  })
  .refine((p) => p.mode !== 'update-section' || (p.section !== undefined && p.section.trim() !== ''), {
    message: 'mode "update-section" needs "section": the heading text whose body to replace',
    path: ['section'],
  });
export type PresentReviewParams = z.input<typeof PresentReviewParams>;

/** A reply's outline stays a summary: a review may have tens of thousands of headings. */
export const MAX_REPLY_SECTIONS = 1_000;

export const PresentReviewResult = z.object({
  revision: z.number().int().min(1),
  title: z.string().optional(),
  /**
   * The review's sections; after an append, only those it added, so that a thousand appends
   * do not send the whole outline back a thousand times. At most MAX_REPLY_SECTIONS, the first
   * ones: `sectionCount` counts them all, and get-review has them all.
   */
  sections: z.array(Section),
  sectionCount: z.number().int().min(0),
  references: ReferenceReport,
  /** The findings of what this call sent (after an append, the new part only). */
  findings: z.array(Finding),
});
export type PresentReviewResult = z.infer<typeof PresentReviewResult>;

/**
 * get-review answers a page at a time, so that its reply is one line every client can read, and
 * one a model can take in. A client drops a longer line (Codex CLI at 8 MiB, the TypeScript SDKs'
 * 10 MiB read buffer, Claude Code at 16 MiB), and Claude Code refuses a result of more than 25,000
 * tokens, which 32 Ki characters of prose with their findings stay under. The MCP result carries
 * the page's markdown twice, in its text (which Gemini CLI gives the model) and its structured
 * content (which Claude Code and Codex give it), and JSON escapes a control character as six bytes,
 * so the worst page is 12x REVIEW_PAGE_CHARS on the line: 384 KiB. Its section titles are within
 * that markdown, but for the last, whose line may run on, and which is cut to MAX_SECTION_CHARS.
 * The findings and the comparison are held to their bytes of JSON, each twice. The whole line
 * stays under 1.5 MiB, far below the 8 MiB of the strictest client.
 */
export const REVIEW_PAGE_CHARS = 32 * 1024;
/** A page ends before its 1,001st heading: thousands of one-character headings fit in a page's characters. */
export const MAX_PAGE_SECTIONS = 1_000;
/** The findings of one page, as JSON: some two hundred findings. */
export const PAGE_FINDINGS_BYTES = 64 * 1024;
/** The comparison, on the first page only, as JSON: past this its lists are cut, saying how many entries were left out. */
export const COMPARISON_BYTES = 256 * 1024;
/** A cursor is short; a longer one is no cursor get-review gave. */
export const MAX_CURSOR_CHARS = 100;

export const GetReviewParams = z
  .object({
    /** Also say how the findings stand against the review this one replaced (on the first page). */
    compareWithPrevious: z.boolean().optional(),
    /** The `nextCursor` of the page before; absent for the first page. */
    cursor: z.string().max(MAX_CURSOR_CHARS).optional(),
    assistant: Assistant,
  })
  .strict();
export type GetReviewParams = z.infer<typeof GetReviewParams>;

const ComparedFinding = Finding.pick({ id: true, severity: true, title: true, reference: true, state: true });

/** How a review's findings stand against those of the review before it (matched by text, then by title). */
export const ReviewComparison = z.object({
  revision: z.number().int().min(1),
  previous: z.object({ revision: z.number().int().min(1), title: z.string().optional(), updatedAt: z.string() }),
  /** Only in this review. */
  new: z.array(ComparedFinding),
  /** Gone from this review, or in it and marked resolved. */
  fixed: z.array(ComparedFinding.extend({ how: z.enum(['gone', 'resolved']) })),
  /** In both, neither resolved nor declined. */
  stillOpen: z.array(ComparedFinding),
  /** In both, marked "won't fix". */
  declined: z.array(ComparedFinding),
  /** Entries left out of the lists above to keep the reply within COMPARISON_BYTES; absent means none. */
  omitted: z.number().int().min(1).optional(),
});
export type ReviewComparison = z.infer<typeof ReviewComparison>;

/** Where a page of get-review sits in the whole review. */
export const ReviewPage = z.object({
  /** The review's 1-based lines whose markdown this page holds; absent on a page of findings only. */
  fromLine: z.number().int().min(1).optional(),
  toLine: z.number().int().min(1).optional(),
  totalLines: z.number().int().min(1),
  /** The review's findings in all; this page has `findings`, from the 0-based `firstFinding` on. */
  firstFinding: z.number().int().min(0),
  totalFindings: z.number().int().min(0),
});
export type ReviewPage = z.infer<typeof ReviewPage>;

export const GetReviewResult = z.object({
  /** 0 when nothing has been presented in this window yet. */
  revision: z.number().int().min(0),
  title: z.string().optional(),
  /** This page's part of the review's markdown: the whole of it when `nextCursor` is absent on the first page. */
  markdown: z.string(),
  /** The headings in this page's markdown, each with its line in the whole review. */
  sections: z.array(Section),
  updatedAt: z.string().optional(),
  /** This page's share of the findings (see `page`). */
  findings: z.array(Finding),
  /** Asked for with `compareWithPrevious`, on the first page; null when there is no earlier review to compare with. */
  comparison: ReviewComparison.nullable().optional(),
  /** Absent when nothing is shown. */
  page: ReviewPage.optional(),
  /** Pass it as `cursor` to read the next page; absent on the last. */
  nextCursor: z.string().optional(),
});
export type GetReviewResult = z.infer<typeof GetReviewResult>;
