// The review as it leaves the window (shared/exchange/exportedReview.ts), built from an assistant's
// current review: its findings where their code is now (not the lines as written), what the user
// decided about each and their replies, with paths relative to the repository's top. The exports,
// the MCP resource and publishing to a pull request all start here. No `vscode`: tests build one
// from a window without an editor.

import type { FeedbackItem } from '../../../shared/protocol';
import {
  findingFingerprint,
  type ExportedFinding,
  type ExportedReply,
  type ExportedReview,
} from '../../../shared/exchange/exportedReview';
import { REDLINE_VERSION } from '../../../shared/version';
import type { AssistantReview } from '../review/assistantReviews';
import { relativeToRoot, repositoryRoot } from './repositoryRoot';

export type ExportSource = Pick<AssistantReview, 'store' | 'findings' | 'conversation' | 'name'>;

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
  const replies = repliesByFinding(owner.conversation.since().items);
  const findings: ExportedFinding[] = [];
  for (const finding of shown) {
    const file = root ? await relativeToRoot(root, finding.file) : finding.file;
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
      replies: replies.get(finding.id) ?? [],
      suggestions: finding.suggestions,
    });
  }
  const assistant = owner.name ?? review.assistant;
  return {
    ...(assistant !== undefined ? { assistant } : {}),
    ...(review.title !== undefined ? { title: review.title } : {}),
    revision: review.revision,
    markdown: review.markdown,
    repositoryRoot: root,
    findings,
    toolVersion: REDLINE_VERSION,
  };
}

/** The user's replies kept in the conversation, by finding, oldest first; one pass over the items. */
function repliesByFinding(items: readonly FeedbackItem[]): Map<string, ExportedReply[]> {
  const byFinding = new Map<string, ExportedReply[]>();
  for (const item of items) {
    if (item.kind !== 'reply' || item.findingId === undefined || item.text === undefined) continue;
    const list = byFinding.get(item.findingId) ?? byFinding.set(item.findingId, []).get(item.findingId)!;
    list.push({ text: item.text, at: item.at });
  }
  return byFinding;
}
