// Finding extraction: the list items and paragraphs of a review that point at code. A block is a
// finding when its first file reference resolves, and is anchored at that reference's lines. The
// renderer records candidate blocks while it parses and turns them into findings here.

import { createHash } from 'crypto';
import { labelOf } from '../../../shared/findingLabel';
import { MAX_FINDINGS, type FindingSeverity } from '../../../shared/protocol';
import type MarkdownIt from 'markdown-it';
import type { ReferenceMeta } from './referenceAnswers';
import { suggestionText } from './suggestions';

/** A block that may be a finding: its 0-based source lines in the markdown rendered, and its references. */
export interface FindingCandidate {
  /** A list item is a finding by its reference alone; a paragraph only with a severity label too. */
  readonly kind: 'item' | 'paragraph';
  readonly map: readonly [number, number];
  /** The block's references, in order, as recorded during the parse. */
  readonly references: readonly ReferenceMeta[];
  /** The ```suggestion fences that belong to the block. */
  readonly suggestions: MarkdownIt.Token[];
  /** Called with the id once the block is known to be a finding (the renderer marks it in the HTML). */
  readonly mark: (id: string) => void;
}

/** A finding as the renderer found it; where it is now and what the user decided are added later. */
export interface ReviewFinding {
  readonly id: string;
  readonly severity: FindingSeverity | null;
  readonly title: string;
  /** The reference as written in the review. */
  readonly reference: string;
  readonly file: string;
  /** 1-based lines in the file, as the review named them (clamped to the file's end). */
  readonly line: number;
  readonly endLine: number;
  /** 1-based line of the block in the whole review. */
  readonly reviewLine: number;
  /** The block's markdown, as written. */
  readonly markdown: string;
  /** What its ```suggestion blocks propose in place of its lines. */
  readonly suggestions: readonly string[];
  /** Their fences, for the renderer. */
  readonly suggestionTokens: readonly MarkdownIt.Token[];
}

/** Where candidates come from: the markdown rendered, as lines, and what the review around it holds. */
export interface CandidateSource {
  readonly sourceLines: readonly string[];
  /** The line of the whole review that the markdown's first line is. */
  readonly lineOffset: number;
  /** Ids already used in the review (for an append), so that a repeated text gets a new one. */
  readonly taken?: ReadonlySet<string>;
}

/**
 * The candidates whose first reference (the first that became a link) resolved, with stable ids:
 * a hash of the block's text, so the same text keeps its id through appends and section updates.
 */
export function findingsOf(
  candidates: readonly FindingCandidate[],
  { sourceLines, lineOffset, taken = new Set() }: CandidateSource,
): ReviewFinding[] {
  const findings: ReviewFinding[] = [];
  const used = new Set(taken);
  const nextSuffix = new Map<string, number>();
  for (const candidate of candidates) {
    if (findings.length + taken.size >= MAX_FINDINGS) break;
    const first = candidate.references.find((meta) => !(meta.onlyIfResolved && meta.resolution?.status !== 'resolved'));
    const resolution = first?.resolution;
    if (!first || resolution?.status !== 'resolved' || resolution.lineCount === 0) continue;
    const markdown = sourceLines.slice(candidate.map[0], candidate.map[1]).join('\n').trimEnd();
    const { severity, title } = labelOf(markdown);
    // A summary paragraph that names a file is prose, not a finding: a paragraph must say what it is.
    if (candidate.kind === 'paragraph' && severity === null) continue;
    const id = uniqueId(findingId(markdown), used, nextSuffix);
    const last = Number.isFinite(resolution.lineCount) ? resolution.lineCount : Number.MAX_SAFE_INTEGER;
    const line = Math.min(first.reference.line ?? 1, last);
    findings.push({
      id,
      severity,
      title,
      reference: first.raw,
      file: resolution.absolutePath,
      line,
      endLine: Math.max(line, Math.min(first.reference.endLine ?? line, last)),
      reviewLine: candidate.map[0] + 1 + lineOffset,
      markdown,
      suggestions: candidate.suggestions.map(suggestionText),
      suggestionTokens: candidate.suggestions,
    });
    candidate.mark(id);
  }
  return findings;
}

/**
 * The findings of a part added to a review (an append, an updated section), numbered as the whole
 * review numbers them: a text the part repeats gets the suffix after those `taken` before it.
 */
export function numberAfter(findings: readonly ReviewFinding[], taken: ReadonlySet<string>): ReviewFinding[] {
  const used = new Set(taken);
  const nextSuffix = new Map<string, number>();
  return findings
    .slice(0, Math.max(0, MAX_FINDINGS - taken.size))
    .map((finding) => ({ ...finding, id: uniqueId(findingId(finding.markdown), used, nextSuffix) }));
}

/** A short hash of the text with its whitespace runs collapsed, so re-wrapping or indenting keeps the id. */
export function findingId(markdown: string): string {
  const normalized = markdown.replace(/\s+/g, ' ').trim();
  return `f-${createHash('sha256').update(normalized).digest('base64url').slice(0, 12)}`;
}

/**
 * The first of `id`, `id-2`, `id-3` … not yet used. `nextSuffix` remembers where each id's search
 * ended, so that a text repeated a thousand times costs a thousand lookups, not half a million.
 */
function uniqueId(id: string, used: Set<string>, nextSuffix: Map<string, number>): string {
  let unique = id;
  let n = nextSuffix.get(id) ?? 2;
  while (used.has(unique)) unique = `${id}-${n++}`;
  nextSuffix.set(id, n);
  used.add(unique);
  return unique;
}
