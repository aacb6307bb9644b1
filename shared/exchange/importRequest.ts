// A SARIF file as import-review sends it: decoded, read by fromSarif (sarifImport.ts) and checked
// against what the window accepts, so that the command line and the window's command refuse a bad
// or oversized log alike, with the reason, before anything is sent or shown.

import {
  describeIssues,
  ImportReviewParams,
  type ImportReviewResult,
  MAX_FEEDBACK_TEXT,
  type ImportedFindingParams,
} from '../protocol';
import { DEFAULT_MAX_SARIF_BYTES, fromSarif, SarifImportError } from './sarifImport';

/** The largest SARIF file read, before anything parses it: the import's own limit. */
export const MAX_SARIF_FILE_BYTES = DEFAULT_MAX_SARIF_BYTES;

/** The tab the window's command opens a log in: each import replaces the one before, never an assistant's review. */
export const SARIF_IMPORT_ASSISTANT = 'SARIF import';

/** A log that cannot be imported: the message says why, and what to do. */
export class ImportRequestError extends Error {}

/**
 * The import-review params for a SARIF file's bytes; throws ImportRequestError with the reason.
 * `cwd` is where the log's relative paths start; `assistant` whose review it replaces (the command
 * line's, like its `present`, is the window's first review).
 */
export function sarifImportRequest(
  bytes: Uint8Array,
  name: string,
  where: { readonly cwd?: string; readonly assistant?: string },
): ImportReviewParams {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportRequestError(`${name} is not UTF-8 text, so it is not a SARIF log.`);
  }
  let imported;
  try {
    imported = fromSarif(text, { maxBytes: MAX_SARIF_FILE_BYTES });
  } catch (error) {
    if (error instanceof SarifImportError) throw new ImportRequestError(`${name}: ${error.message}`);
    throw error;
  }
  const findings: ImportedFindingParams[] = imported.findings.map((finding) => ({
    fingerprint: finding.fingerprint,
    file: finding.file,
    line: Math.max(1, finding.line),
    endLine: Math.max(1, finding.line, finding.endLine),
    markdownLine: Math.max(1, finding.markdownLine),
    state: finding.state,
    replies: finding.replies
      .map((reply) => ({ text: reply.text.trim().slice(0, MAX_FEEDBACK_TEXT), at: reply.at.slice(0, 40) }))
      .filter((reply) => reply.text !== ''),
  }));
  const { cwd, assistant } = where;
  const params = {
    title: imported.title.slice(0, 500),
    markdown: imported.markdown,
    findings,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(assistant !== undefined ? { assistant } : {}),
  };
  const checked = ImportReviewParams.safeParse(params);
  if (!checked.success)
    throw new ImportRequestError(`${name} cannot be shown as a review: ${describeIssues(checked.error)}.`);
  return params;
}

/** What an import did, in a sentence: for the command line and the window's command. */
export function describeImport(result: ImportReviewResult, results: number): string {
  const outside =
    result.unmatched > 0
      ? ` ${result.unmatched} of the log's ${results} results point at no file or lines in the workspace, and are listed as broken references.`
      : '';
  const restored =
    result.restored.states + result.restored.replies > 0
      ? ` Restored ${result.restored.states} states and ${result.restored.replies} replies.`
      : '';
  return `Opened as revision ${result.revision}: ${result.findings} findings.${restored}${outside}`;
}

/** What an export left out, for the same two. */
export function describeOmitted(omitted: number): string {
  return `${omitted} findings were left out, to keep within what GitHub takes in one SARIF upload.`;
}
