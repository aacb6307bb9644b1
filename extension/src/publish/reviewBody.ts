// The body of the review publishing posts: a summary of what it adds (counts by severity, how many
// are comments on the diff and how many are below), then the findings that could not go on a line,
// cut to GitHub's limit on a body's length.

import { FINDING_SEVERITIES } from '../../../shared/findingTerms';
import type { ExportedFinding } from '../../../shared/exchange/exportedReview';
import { inertWords, MAX_BODY, REVIEW_MARKER } from './publishMarkdown';

export interface ReviewBodyInput {
  /** Whose review and which revision, for the heading. */
  readonly assistant?: string;
  readonly revision: number;
  /** Whether an earlier Redline review is on the pull request (then this one adds to it). */
  readonly addsToEarlier: boolean;
  readonly commentFindings: readonly ExportedFinding[];
  readonly sections: readonly { readonly finding: ExportedFinding; readonly section: string }[];
  /** Findings on files outside the repository, which GitHub has no place for. */
  readonly outsideRepository: number;
}

export interface ReviewBody {
  readonly body: string;
  /** How many of the sections fit; the rest are left for the next publish. */
  readonly sectionsShown: number;
}

export function composeReviewBody(input: ReviewBodyInput): ReviewBody {
  const all = [...input.commentFindings, ...input.sections.map((s) => s.finding)];
  // The assistant's name is its own words (MCP clientInfo): plain and inert, like any text from outside.
  const by = input.assistant ? ` by ${inertWords(input.assistant, 200)}` : '';
  const heading = input.addsToEarlier
    ? `**Redline review**${by}, revision ${input.revision}: ${count(all.length, 'more finding')} since the earlier review (${severityCounts(all)}).`
    : `**Redline review**${by}, revision ${input.revision}: ${count(all.length, 'finding')} (${severityCounts(all)}).`;
  const lines = [REVIEW_MARKER, heading];
  const placed: string[] = [];
  if (input.commentFindings.length > 0) placed.push(`${count(input.commentFindings.length, 'comment')} on the diff`);
  if (input.sections.length > 0)
    placed.push(`${input.sections.length} below, which GitHub would not take as comments on lines`);
  if (placed.length > 0) lines.push(`${capitalize(placed.join('; '))}.`);
  if (input.outsideRepository > 0)
    lines.push(
      `${count(input.outsideRepository, 'finding')} on files outside the repository ${input.outsideRepository === 1 ? 'is' : 'are'} left out.`,
    );

  let body = lines.join('\n\n');
  let shown = 0;
  const notShownNote = (left: number) =>
    `\n\n_${count(left, 'more finding')} did not fit in this review's body (GitHub's limit is ${MAX_BODY.toLocaleString('en-US')} characters): publish again to add them._`;
  for (const { section } of input.sections) {
    const next = `${body}\n\n${shown === 0 ? '---\n\n' : ''}${section}`;
    if (next.length + notShownNote(input.sections.length).length > MAX_BODY) break;
    body = next;
    shown++;
  }
  if (shown < input.sections.length) body += notShownNote(input.sections.length - shown);
  return { body, sectionsShown: shown };
}

/** "2 bug, 1 nit", most severe first. */
export function severityCounts(findings: readonly ExportedFinding[]): string {
  if (findings.length === 0) return 'none new';
  const counts = new Map<string, number>();
  for (const finding of findings)
    counts.set(finding.severity ?? 'other', (counts.get(finding.severity ?? 'other') ?? 0) + 1);
  return [...FINDING_SEVERITIES, 'other']
    .filter((severity) => counts.has(severity))
    .map((severity) => `${counts.get(severity)} ${severity}`)
    .join(', ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
