// get-review's pages: the review's markdown cut at line ends into pages of at most
// REVIEW_PAGE_CHARS, with the headings and a share of the findings that go with each, and the
// cursor that names the next one. Pure: the handler (requestHandlers.ts) gives it the review.

import {
  COMPARISON_BYTES,
  ErrorCode,
  IpcError,
  MAX_PAGE_SECTIONS,
  MAX_SECTION_CHARS,
  PAGE_FINDINGS_BYTES,
  REVIEW_PAGE_CHARS,
  type Finding,
  type ReviewComparison,
  type ReviewPage,
  type Section,
} from '../../../shared/protocol';
import { clipText } from '../../../shared/textCut';

/** Where a page starts: a character of the markdown and an index into the findings, of one revision. */
export interface PageStart {
  readonly revision: number;
  readonly offset: number;
  readonly finding: number;
}

export interface PagedReview {
  readonly revision: number;
  readonly markdown: string;
  readonly sections: readonly Section[];
}

export interface Page {
  readonly markdown: string;
  readonly sections: Section[];
  readonly findings: Finding[];
  readonly page: ReviewPage;
  readonly nextCursor?: string;
}

const CURSOR = /^r([1-9]\d{0,14})\.m(\d{1,9})\.f(\d{1,5})$/;

export function encodeCursor(start: PageStart): string {
  return `r${start.revision}.m${start.offset}.f${start.finding}`;
}

/** The start a cursor names, or an error that says what to do instead. */
export function decodeCursor(cursor: string, review: PagedReview | undefined, findingCount: number): PageStart {
  const match = CURSOR.exec(cursor);
  const start = match && { revision: Number(match[1]), offset: Number(match[2]), finding: Number(match[3]) };
  if (
    !start ||
    (review &&
      start.revision === review.revision &&
      (start.offset > review.markdown.length || start.finding > findingCount))
  ) {
    throw new IpcError(
      ErrorCode.InvalidParams,
      `"${cursor.slice(0, 40)}" is not a cursor get-review gave. Pass the "nextCursor" of your last get-review result as it was, or call get-review without a cursor to read the review from its first page.`,
    );
  }
  if (!review || start.revision !== review.revision) {
    const now = review ? `is now revision ${review.revision}` : 'is no longer shown';
    throw new IpcError(
      ErrorCode.InvalidParams,
      `That cursor is for revision ${start.revision} of your review, which ${now}. Call get-review without a cursor to read it again from its first page.`,
    );
  }
  return start;
}

/** The page that starts at `start`: markdown to a line end, its headings, and findings up to PAGE_FINDINGS_BYTES. */
export function reviewPage(
  review: PagedReview,
  findings: readonly Finding[],
  start: PageStart = { revision: review.revision, offset: 0, finding: 0 },
): Page {
  const { markdown } = review;
  const lines = lineIndex(review);
  const fromLine = lines.lineAt(start.offset);
  let end = pageEnd(markdown, start.offset);
  let toLine =
    fromLine +
    newlinesIn(markdown, start.offset, end) -
    (end > start.offset && markdown.charCodeAt(end - 1) === 10 ? 1 : 0);
  // A heading belongs to the page its line starts on: a page that starts inside a line has the
  // rest of that line, not its heading again.
  const firstLine = start.offset === 0 || markdown.charCodeAt(start.offset - 1) === 10 ? fromLine : fromLine + 1;
  let sections = review.sections
    .filter((section) => section.line >= firstLine && section.line <= toLine)
    .map(shortSectionTitle);
  if (sections.length > MAX_PAGE_SECTIONS) {
    // The page ends where the first heading it has no room for begins.
    const next = sections[MAX_PAGE_SECTIONS];
    end = offsetOfLine(markdown, { offset: start.offset, line: fromLine }, next.line);
    toLine = next.line - 1;
    sections = sections.slice(0, MAX_PAGE_SECTIONS);
  }
  const taken = end > start.offset;
  const findingEnd = start.finding + countWithinBytes(findings, { from: start.finding, budget: PAGE_FINDINGS_BYTES });
  const more = end < markdown.length || findingEnd < findings.length;
  lines.remember(end, toLine + (end > 0 && markdown.charCodeAt(end - 1) !== 10 ? 0 : 1));
  return {
    markdown: markdown.slice(start.offset, end),
    sections,
    findings: findings.slice(start.finding, findingEnd),
    page: {
      ...(taken ? { fromLine, toLine } : {}),
      totalLines: lines.total,
      firstFinding: start.finding,
      totalFindings: findings.length,
    },
    ...(more ? { nextCursor: encodeCursor({ revision: review.revision, offset: end, finding: findingEnd }) } : {}),
  };
}

/**
 * A heading's title cut to MAX_SECTION_CHARS, the longest "update-section" takes: a heading line
 * can be the whole 10 MiB review, which would make one title a line no client reads.
 */
export function shortSectionTitle(section: Section): Section {
  if (section.title.length <= MAX_SECTION_CHARS) return section;
  return { ...section, title: clipText(section.title, MAX_SECTION_CHARS) };
}

/** The comparison with its lists cut to COMPARISON_BYTES in all, saying how many entries were left out. */
export function boundedComparison(comparison: ReviewComparison): ReviewComparison {
  let budget = COMPARISON_BYTES;
  let omitted = 0;
  const cut = <T>(list: readonly T[]): T[] => {
    const kept = countWithinBytes(list, { budget, minimum: 0 });
    budget -= jsonBytes(list.slice(0, kept));
    omitted += list.length - kept;
    return list.slice(0, kept);
  };
  const bounded = {
    ...comparison,
    new: cut(comparison.new),
    fixed: cut(comparison.fixed),
    stillOpen: cut(comparison.stillOpen),
    declined: cut(comparison.declined),
  };
  return omitted > 0 ? { ...bounded, omitted } : bounded;
}

/** Where the page from `offset` ends: after the last newline within REVIEW_PAGE_CHARS, or at the limit when a line is longer. */
function pageEnd(markdown: string, offset: number): number {
  const limit = offset + REVIEW_PAGE_CHARS;
  if (limit >= markdown.length) return markdown.length;
  const newline = markdown.lastIndexOf('\n', limit - 1);
  if (newline >= offset) return newline + 1;
  // One line longer than a page: cut inside it, but never between the halves of a surrogate pair.
  const code = markdown.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

interface ByteBudget {
  /** The first item to count; 0 unless given. */
  readonly from?: number;
  /** Bytes of JSON, a newline after each item. */
  readonly budget: number;
  /** Taken whatever their size (1 unless given), so that every page moves on. */
  readonly minimum?: number;
}

/** How many items from `from` fit in `budget` bytes of JSON; at least `minimum`. */
function countWithinBytes(items: readonly unknown[], { from = 0, budget, minimum = 1 }: ByteBudget): number {
  let used = 0;
  let taken = 0;
  for (let i = from; i < items.length; i++) {
    used += jsonBytes(items[i]) + 1;
    if (used > budget && taken >= minimum) break;
    taken++;
  }
  return taken;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

interface LineIndex {
  readonly total: number;
  /** The 1-based line that the character at `offset` is on. */
  lineAt(offset: number): number;
  remember(offset: number, line: number): void;
}

/**
 * Each revision's line count, and the line each page it gave ends on: counting the lines before a
 * page from the top again would make reading a review of millions of lines quadratic. A cursor it
 * did not give (a window reloaded meanwhile) is counted from the top, once.
 */
const lineIndexes = new WeakMap<PagedReview, LineIndex>();

function lineIndex(review: PagedReview): LineIndex {
  const known = lineIndexes.get(review);
  if (known) return known;
  const { markdown } = review;
  const starts = new Map<number, number>([[0, 1]]);
  const index: LineIndex = {
    // A final newline ends the last line rather than starting another.
    total: Math.max(1, 1 + newlinesIn(markdown, 0, markdown.length) - (markdown.endsWith('\n') ? 1 : 0)),
    lineAt: (offset) => starts.get(offset) ?? 1 + newlinesIn(markdown, 0, offset),
    remember: (offset, line) => void starts.set(offset, line),
  };
  lineIndexes.set(review, index);
  return index;
}

/** The newlines in `text` from `from` up to (not including) `to`. */
function newlinesIn(text: string, from: number, to: number): number {
  let found = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) found++;
  return found;
}

/** The offset where `line` starts, counting on from a known place: an offset and the line it is on. */
function offsetOfLine(
  markdown: string,
  known: { readonly offset: number; readonly line: number },
  line: number,
): number {
  let at = known.offset;
  for (let current = known.line; current < line; current++) at = markdown.indexOf('\n', at) + 1;
  return at;
}
