// A review as one markdown file that reads on its own: the review as the assistant wrote it, then
// what became of each finding (where it is now, the user's answer, the replies), for a pull
// request's description, a wiki or an issue.

import type { ExportedFinding, ExportedReply, ExportedReview } from './exportedReview';
import { KIND_TITLE, kindOf } from './findingKinds';

const STATE_WORDS = { open: 'open', resolved: 'resolved', accepted: 'accepted', 'wont-fix': "won't fix" } as const;

export function toMarkdown(review: ExportedReview): string {
  const parts: string[] = [];
  if (review.title !== undefined && !/^\s{0,3}#\s/.test(review.markdown)) parts.push(`# ${oneLine(review.title)}`);
  parts.push(review.markdown.replace(/\s+$/, ''));
  if (review.findings.length > 0) {
    parts.push('---');
    parts.push(`## Findings and answers (${review.findings.length})`);
    parts.push(countsOf(review.findings));
    parts.push(review.findings.map(findingEntry).join('\n'));
  }
  const by = review.assistant === undefined ? '' : ` of ${oneLine(review.assistant)}'s review`;
  parts.push(`<sub>Exported from Redline ${review.toolVersion}${by}, revision ${review.revision}.</sub>`);
  return `${parts.join('\n\n')}\n`;
}

/** "2 open, 1 resolved": what the user has answered, at a glance. */
function countsOf(findings: readonly ExportedFinding[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(STATE_WORDS[finding.state], (counts.get(STATE_WORDS[finding.state]) ?? 0) + 1);
  return [...counts].map(([state, count]) => `${count} ${state}`).join(', ') + '.';
}

/** `- **Resolved** · Bug · `src/a.ts:12-14` — title`, its replies quoted below it. */
function findingEntry(finding: ExportedFinding): string {
  const place = finding.endLine > finding.line ? `${finding.file}:${finding.line}-${finding.endLine}` : `${finding.file}:${finding.line}`;
  const state = STATE_WORDS[finding.state];
  const stale = finding.stale ? ' (the code it pointed at has changed)' : '';
  const lines = [`- **${state[0].toUpperCase()}${state.slice(1)}** · ${KIND_TITLE[kindOf(finding.severity)]} · ${codeSpan(place)}${stale} — ${oneLine(finding.title)}`];
  for (const reply of finding.replies) lines.push(...replyLines(reply));
  return lines.join('\n');
}

function replyLines(reply: ExportedReply): string[] {
  const quoted = reply.text.replace(/\s+$/, '').split(/\r?\n/).map((line) => `  > ${line}`.trimEnd());
  return [`  - Reply, ${reply.at}:`, ...quoted.map((line) => `  ${line}`)];
}

/** Backticks that a backtick in the text cannot close. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
