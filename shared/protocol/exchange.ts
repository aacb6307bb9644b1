// The review as it leaves the window and comes back: export-review writes the caller's current
// review as SARIF, rdjsonl or markdown, a page at a time; import-review shows a review read from a
// SARIF log (shared/exchange/sarifImport.ts) and gives back each finding's state and replies.

import { z } from 'zod';
import {
  FindingState,
  Assistant,
  ReferenceReport,
  isBlankReview,
  BLANK_REVIEW_MESSAGE,
  MAX_CURSOR_CHARS,
} from './reviews';
import { MAX_CWD_CHARS, MAX_FINDINGS, MAX_REVIEW_BYTES } from './limits';
import { ImportedLogParams, ImportedReply } from './importedLog';

export const EXPORT_FORMATS = ['sarif', 'rdjsonl', 'markdown'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

/**
 * An export answers a page of its text at a time. A SARIF log of a thousand findings, each with its
 * markdown, and the review's own, runs to megabytes; a page of this many characters is at most six
 * times as many bytes once JSON-escaped, far below the frame limit, and the window keeps the text
 * between pages so that every page is of the same export.
 */
export const EXPORT_PAGE_CHARS = 1024 * 1024;

export const ExportReviewParams = z
  .object({
    format: ExportFormat,
    /** The `nextCursor` of the page before; absent for the first page. */
    cursor: z.string().max(MAX_CURSOR_CHARS).optional(),
    assistant: Assistant,
  })
  .strict();
export type ExportReviewParams = z.infer<typeof ExportReviewParams>;

export const ExportReviewResult = z.object({
  /** 0 when nothing is shown: the text is then an export of no findings. */
  revision: z.number().int().min(0),
  format: ExportFormat,
  /** This page's part of the text; the whole of it when `nextCursor` is absent on the first page. */
  text: z.string(),
  /** The findings the export holds. */
  findings: z.number().int().min(0),
  /** Findings left out to keep within the format's limits (SARIF's results per run); absent means none. */
  omitted: z.number().int().min(1).optional(),
  /** What else the export left out, and why, each as a sentence (results reviewdog has no place for). */
  leftOut: z.array(z.string().max(500)).max(10).optional(),
  /** Results an imported log had that point at no file here, exported where the log put them. */
  withoutFile: z.number().int().min(1).optional(),
  /** Pass it as `cursor` to read the next page; absent on the last. */
  nextCursor: z.string().optional(),
});
export type ExportReviewResult = z.infer<typeof ExportReviewResult>;

/** As many items as a conversation keeps (extension/src/review/conversation.ts, MAX_FEEDBACK_ITEMS): more would push out the first. */
export const MAX_IMPORTED_REPLIES = 2000;

const ImportedFinding = z
  .object({
    /** findingFingerprint(file, title), as the log gave it or as the import worked it out. */
    fingerprint: z.string().min(1).max(200),
    file: z.string().min(1).max(MAX_CWD_CHARS),
    line: z.number().int().min(1),
    endLine: z.number().int().min(1),
    /** The 1-based line of the markdown where the finding's block starts: how it is matched once shown. */
    markdownLine: z.number().int().min(1),
    state: FindingState,
    replies: z.array(ImportedReply).max(MAX_IMPORTED_REPLIES),
    /** The result is about the whole file: the export writes it without lines. */
    fileLevel: z.boolean().optional(),
    /** Its result in the params' `log`. */
    result: z.number().int().min(0).max(MAX_FINDINGS).optional(),
  })
  .strict();
export type ImportedFindingParams = z.infer<typeof ImportedFinding>;

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** What the import sends besides its envelope: held to the review's limit, so that the frame limit covers it as it covers present-review. */
function importedBytes(params: {
  markdown: string;
  findings: readonly ImportedFindingParams[];
  log?: unknown;
}): number {
  let bytes = utf8Bytes(params.markdown);
  for (const finding of params.findings) {
    bytes += utf8Bytes(finding.file);
    for (const reply of finding.replies) bytes += utf8Bytes(reply.text);
  }
  return bytes + (params.log === undefined ? 0 : utf8Bytes(JSON.stringify(params.log)));
}

export const ImportReviewParams = z
  .object({
    title: z.string().max(500).optional(),
    markdown: z.string().refine((text) => !isBlankReview(text), { message: BLANK_REVIEW_MESSAGE }),
    findings: z.array(ImportedFinding).max(MAX_FINDINGS, `a review shows at most ${MAX_FINDINGS} findings`),
    /** Where the log's relative paths start. */
    cwd: z.string().max(MAX_CWD_CHARS).optional(),
    assistant: Assistant,
    /** What the log was: its tools, rules and results, for the export to give back (importedLog.ts). */
    log: ImportedLogParams.optional(),
  })
  .strict()
  .refine(
    (params) =>
      params.findings.every(
        (finding) => finding.result === undefined || finding.result < (params.log?.results.length ?? 0),
      ),
    {
      message: 'a finding names a result the log does not have',
    },
  )
  .refine((params) => importedBytes(params) <= MAX_REVIEW_BYTES, {
    message: `the review with its replies is larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB`,
  })
  .refine(
    (params) => params.findings.reduce((sum, finding) => sum + finding.replies.length, 0) <= MAX_IMPORTED_REPLIES,
    {
      message: `the findings hold more than ${MAX_IMPORTED_REPLIES} replies, more than a review keeps`,
    },
  );
export type ImportReviewParams = z.input<typeof ImportReviewParams>;

export const ImportReviewResult = z.object({
  revision: z.number().int().min(1),
  title: z.string().optional(),
  references: ReferenceReport,
  /** The findings shown. */
  findings: z.number().int().min(0),
  /** Imported findings that were not shown as one: their file is not in the workspace, or their lines are gone. */
  unmatched: z.number().int().min(0),
  /** States other than open, and replies, given back to the findings shown. */
  restored: z.object({ states: z.number().int().min(0), replies: z.number().int().min(0) }),
});
export type ImportReviewResult = z.infer<typeof ImportReviewResult>;
