// The review as it leaves the window (shared/exchange/exportedReview.ts), built from an assistant's
// current review: its findings where their code is now (not the lines as written), what was decided
// about each and the replies (each saying where it came from: the user, or an imported log), with
// paths relative to the repository's top; for a review imported from a SARIF log, what each finding
// was in that log and the log's results that are no finding here. The exports, the MCP resource and
// publishing to a pull request all start here. No `vscode`: tests build one from a window without an editor.

import type { FeedbackItem } from '../../../shared/protocol';
import {
  findingFingerprint,
  type ExportedFinding,
  type ExportedReply,
  type ExportedReview,
  type UnplacedResult,
} from '../../../shared/exchange/exportedReview';
import { findingMessage } from '../../../shared/exchange/findingMessage';
import { parseLinkTarget } from '../../../shared/links';
import { REDLINE_VERSION } from '../../../shared/version';
import type { AssistantReview } from '../review/assistantReviews';
import type { ImportedLogRecord } from '../review/importedLogFile';
import { relativeToRoot, repositoryRoot } from './repositoryRoot';

export type ExportSource = Pick<AssistantReview, 'store' | 'findings' | 'conversation' | 'name'> &
  Partial<Pick<AssistantReview, 'importedLog'>>;

/**
 * The review `owner` shows now, or undefined when it shows none. `roots` are where its references
 * are looked for (the renderer's, for its cwd): the first is where the repository is sought from.
 */
export async function buildExportedReview(
  owner: ExportSource,
  roots: (cwd: string | undefined) => readonly string[],
): Promise<ExportedReview | undefined> {
  const review = owner.store.current;
  if (!review) return undefined;
  // Positions are looked up now, so the export says where the code is after the user's edits.
  const shown = await owner.findings.currentShown();
  const start = roots(review.cwd)[0] ?? review.cwd;
  const root = start ? await repositoryRoot(start) : '';
  const answers = answersByFinding(owner.conversation.since().items);
  const imported = await owner.importedLog?.load();
  const resultOf = resultsByFinding(imported);
  const findings: ExportedFinding[] = [];
  for (const finding of shown) {
    const file = root ? await relativeToRoot(root, finding.file) : finding.file;
    const answer = answers.get(finding.id);
    const sarif = resultOf.get(finding.id);
    const reference = parseLinkTarget(finding.reference);
    findings.push({
      id: finding.id,
      fingerprint: findingFingerprint(file, finding.title),
      severity: finding.severity,
      title: finding.title,
      markdown: finding.markdown,
      file,
      line: finding.line,
      endLine: Math.max(finding.line, finding.endLine),
      state: finding.state,
      stale: finding.stale,
      replies: answer?.replies ?? [],
      suggestions: finding.suggestions,
      ...(reference?.kind === 'file' && reference.line === undefined ? { fileLevel: true } : {}),
      ...(answer?.stateOrigin !== undefined && finding.state !== 'open' ? { stateOrigin: answer.stateOrigin } : {}),
      ...(sarif !== undefined ? { sarif } : {}),
    });
  }
  const assistant = owner.name ?? review.assistant;
  // A log's results that became no finding belong to the review it was imported as, not to one that replaced it.
  const unplaced = imported && imported.revision === review.revision ? unplacedOf(imported, review.markdown) : [];
  return {
    ...(assistant !== undefined ? { assistant } : {}),
    ...(review.title !== undefined ? { title: review.title } : {}),
    revision: review.revision,
    markdown: review.markdown,
    repositoryRoot: root,
    findings,
    toolVersion: REDLINE_VERSION,
    ...(imported ? { importedLog: { name: imported.log.name, tools: imported.log.tools } } : {}),
    ...(unplaced.length > 0 ? { unplaced } : {}),
  };
}

interface Answers {
  readonly replies: ExportedReply[];
  /** Where the latest state came from, when a log gave it. */
  stateOrigin?: string;
}

/** The replies kept in the conversation, by finding, oldest first, and where each state came from; one pass. */
function answersByFinding(items: readonly FeedbackItem[]): Map<string, Answers> {
  const byFinding = new Map<string, Answers>();
  for (const item of items) {
    if (item.findingId === undefined) continue;
    let answers = byFinding.get(item.findingId);
    if (!answers) byFinding.set(item.findingId, (answers = { replies: [] }));
    const imported = item.source === 'import' ? { source: item.source, origin: item.origin ?? 'imported' } : undefined;
    if (item.kind === 'state') answers.stateOrigin = imported?.origin;
    if (item.kind === 'reply' && item.text !== undefined)
      answers.replies.push({
        text: item.text,
        at: item.at,
        ...(item.source !== undefined && item.source !== 'window' ? { source: item.source } : {}),
        ...(imported ? { origin: imported.origin } : {}),
      });
  }
  return byFinding;
}

function resultsByFinding(
  record: ImportedLogRecord | undefined,
): Map<string, ImportedLogRecord['log']['results'][number]> {
  const byFinding = new Map<string, ImportedLogRecord['log']['results'][number]>();
  record?.findingIds.forEach((id, index) => {
    const result = record.log.results[index];
    if (id !== null && result !== undefined) byFinding.set(id, result);
  });
  return byFinding;
}

/** The log's results that became no finding, each with its item's text from the review as a fallback message. */
function unplacedOf(record: ImportedLogRecord, markdown: string): UnplacedResult[] {
  const lines = markdown.split('\n');
  return record.log.results
    .filter((_, index) => record.findingIds[index] === null || record.findingIds[index] === undefined)
    .map((sarif) => ({ sarif, message: findingMessage(itemAt(lines, sarif.markdownLine)) }));
}

/** The list item that starts on 1-based `line`: that line and the indented or blank lines after it. */
function itemAt(lines: readonly string[], line: number): string {
  const item = [lines[line - 1] ?? ''];
  for (let i = line; i < lines.length && (lines[i] === '' || lines[i].startsWith('  ')); i++) item.push(lines[i]);
  return item.join('\n').trimEnd();
}
