// A SARIF file as import-review sends it: decoded, read by importSarif (sarifImport.ts) with its
// paths found in the workspace, and checked against what the window accepts, so that the command
// line and the window's command (through its import worker) refuse a bad or oversized log alike,
// with the reason, before anything is sent or shown.

import { formatCount } from '../reviewBudget';
import { oneLine } from '../plainText';
import {
  describeIssues,
  ImportedLog,
  ImportReviewParams,
  type ImportReviewResult,
  MAX_FEEDBACK_TEXT,
  type ImportedFindingParams,
} from '../protocol';
import { DEFAULT_MAX_SARIF_BYTES, importSarif, SarifImportError, type ImportSummary } from './sarifImport';
import type { WorkspaceFilesOptions } from './workspaceFiles';

/** The largest SARIF file read, before anything parses it: the import's own limit. */
export const MAX_SARIF_FILE_BYTES = DEFAULT_MAX_SARIF_BYTES;

/** The tab the window's command opens a log in: each import replaces the one before, never an assistant's review. */
export const SARIF_IMPORT_ASSISTANT = 'SARIF import';

/** A log that cannot be imported: the message says why, and what to do. */
export class ImportRequestError extends Error {}

export interface SarifImportRequest {
  readonly params: ImportReviewParams;
  readonly summary: ImportSummary;
}

/**
 * The import-review params for a SARIF file's bytes; throws ImportRequestError with the reason.
 * `workspace` is where the log's paths are looked for (its `cwd` is where relative ones start);
 * `assistant` whose review it replaces (the command line's, like its `present`, is the window's first review).
 */
export async function sarifImportRequest(
  bytes: Uint8Array,
  name: string,
  where: { readonly workspace: WorkspaceFilesOptions; readonly assistant?: string },
): Promise<SarifImportRequest> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportRequestError(`${name} is not UTF-8 text, so it is not a SARIF log.`);
  }
  let imported;
  try {
    imported = await importSarif(text, { maxBytes: MAX_SARIF_FILE_BYTES, name, workspace: where.workspace });
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
    ...(finding.fileLevel ? { fileLevel: true } : {}),
    result: finding.result,
  }));
  const { cwd } = where.workspace;
  const { assistant } = where;
  const params: ImportReviewParams = {
    title: imported.title.slice(0, 500),
    markdown: imported.markdown,
    findings,
    log: imported.log,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(assistant !== undefined ? { assistant } : {}),
  };
  const checked = ImportReviewParams.safeParse(params);
  if (!checked.success)
    throw new ImportRequestError(`${name} cannot be shown as a review: ${describeIssues(checked.error)}.`);
  // The window checks the log's results a few at a time; here, off its thread, they are checked whole.
  const log = ImportedLog.safeParse(imported.log);
  if (!log.success) throw new ImportRequestError(`${name} cannot be kept as it was: ${describeIssues(log.error)}.`);
  return { params, summary: imported.summary };
}

/** What an import did, in a sentence or two: for the command line and the window's command. */
export function describeImport(result: ImportReviewResult, summary: ImportSummary): string {
  const restored =
    result.restored.states + result.restored.replies > 0
      ? ` Restored ${result.restored.states} states and ${result.restored.replies} replies, marked as imported.`
      : '';
  const mapped = summary.places.suffix + summary.places['same-prefix'] + summary.places.located;
  const moved =
    mapped > 0
      ? ` ${formatCount(mapped)} of the log's ${formatCount(summary.listed)} results name files where the log was written, and were found in the workspace by the end of their path or their folder.`
      : '';
  const missing = summary.places['not-found'] + summary.places.ambiguous;
  const example = summary.notFound[0];
  const outside =
    missing > 0
      ? ` ${formatCount(missing)} results name files not found in the workspace${example ? ` (such as ${oneLine(example, 200)})` : ''}, and are listed without a place.`
      : '';
  const broken =
    result.unmatched > 0
      ? ` ${result.unmatched} findings point at lines the workspace's files do not have, and are listed as broken references.`
      : '';
  return `Opened as revision ${result.revision}: ${result.findings} findings.${restored}${moved}${outside}${broken}`;
}

/** What an export left out, for the same two. */
export function describeOmitted(omitted: number): string {
  return `${omitted} findings were left out, to keep within what GitHub takes in one SARIF upload.`;
}
