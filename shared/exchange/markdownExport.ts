// A review as one markdown file that reads on its own: the review as the assistant wrote it, then
// what became of each finding (where it is now, the user's answer, the replies), for a pull
// request's description, a wiki or an issue. Each finding's answer is a heading, not a list item,
// so that the file, presented to Redline again, has the review's findings and no copies of them.

import type { ExportedFinding, ExportedReply, ExportedReview } from './exportedReview';
import { KIND_TITLE, kindOf } from './findingKinds';

const STATE_WORDS = { open: 'Open', resolved: 'Resolved', accepted: 'Accepted', 'wont-fix': "Won't fix" } as const;

export function toMarkdown(review: ExportedReview): string {
  const parts: string[] = [];
  if (review.title !== undefined && !/^\s{0,3}#\s/.test(review.markdown)) parts.push(`# ${oneLine(review.title)}`);
  parts.push(review.markdown.trimEnd());
  if (review.findings.length > 0) {
    parts.push('---');
    parts.push(`## Findings and answers (${review.findings.length})`);
    parts.push(countsOf(review.findings));
    parts.push(...review.findings.map(findingSection));
  }
  const by = review.assistant === undefined ? '' : ` of ${oneLine(review.assistant)}'s review`;
  parts.push(`<sub>Exported from Redline ${review.toolVersion}${by}, revision ${review.revision}.</sub>`);
  return `${parts.join('\n\n')}\n`;
}

/** "5 open, 1 resolved": what the user has answered, at a glance. */
function countsOf(findings: readonly ExportedFinding[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings)
    counts.set(STATE_WORDS[finding.state], (counts.get(STATE_WORDS[finding.state]) ?? 0) + 1);
  return `${[...counts].map(([state, count]) => `${count} ${state.toLowerCase()}`).join(', ')}.`;
}

/** `### Resolved · Bug · `src/a.ts:12-14` — title`, its replies quoted below it. */
function findingSection(finding: ExportedFinding): string {
  const place =
    finding.endLine > finding.line
      ? `${finding.file}:${finding.line}-${finding.endLine}`
      : `${finding.file}:${finding.line}`;
  const stale = finding.stale ? ' (the code it pointed at has changed)' : '';
  const heading = `### ${STATE_WORDS[finding.state]} · ${KIND_TITLE[kindOf(finding.severity)]} · ${codeSpan(place)}${stale} — ${oneLine(finding.title)}`;
  return [heading, ...finding.replies.map(replyQuote)].join('\n\n');
}

/** A reply as a quote that starts with who and when, so that it never reads as a finding of its own. */
function replyQuote(reply: ExportedReply): string {
  const lines = reply.text.trimEnd().split(/\r?\n/);
  return [`> **Reply**, ${reply.at}:`, '>', ...lines.map((line) => `> ${line}`.trimEnd())].join('\n');
}

/** Backticks that a backtick in the text cannot close. */
function codeSpan(text: string): string {
  const longest = [...text.matchAll(/`+/g)].reduce((most, run) => Math.max(most, run[0].length), 0);
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
