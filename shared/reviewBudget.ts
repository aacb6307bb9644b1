// What a review may cost to show, beyond its bytes. 10 MiB of `a\n\n` is 3.5 million paragraphs
// (the parse alone ran the extension host out of memory), 10 MiB of `#\n` 5 million headings, and
// 10 MiB of `*a` 2.6 million <em> elements that froze the panel for 34 s. So the structure is
// counted first, in one pass over the lines and without parsing, and a review over any limit is
// refused with the limit it broke and by how much.
//
// The limits leave room for real large reviews: the bench's 10 MiB review (about 22,000 sections,
// 160,000 blocks, 260,000 inline marks) and its 70,000-reference list are well inside.

/** The limits, each with the words a refusal uses for it. */
export const REVIEW_BUDGET = {
  /** Paragraphs, headings, list items, quotes, tables and code blocks. */
  blocks: { limit: 250_000, what: 'blocks (paragraphs, headings, list items, code blocks)' },
  headings: { limit: 50_000, what: 'headings' },
  /** Emphasis, code-span and link delimiters: each pair is an element in the page. */
  inlineMarks: { limit: 500_000, what: 'inline marks (*, _, `, [ that make emphasis, code and links)' },
} as const;

/** The page's HTML: past this the panel's thread spends seconds on layout, whatever made it. */
export const MAX_RENDERED_HTML_BYTES = 48 * 1024 * 1024;

export type BudgetedMeasure = keyof typeof REVIEW_BUDGET;
export type ReviewCost = Record<BudgetedMeasure, number>;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
// A line that starts a block of its own even right after a paragraph line: a heading, a quote, a
// list item, a table row, a fence, a thematic break.
const BLOCK_START = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|\||`{3,}|~{3,})/;

/**
 * Counts, in linear time, an upper estimate of what markdown-it would make of the text. Lines in
 * a fenced code block count only as that one block. Once a measure is over its limit the rest is
 * not read: the totals are then extrapolated from the part read (`estimated`), which is enough to
 * say by how much, and keeps a pathological 10 MiB review's refusal to a few milliseconds.
 */
export function measureReview(markdown: string): ReviewCost & { estimated?: true } {
  const cost: ReviewCost = { blocks: 0, headings: 0, inlineMarks: 0 };
  let fence: string | undefined;
  let previousBlank = true;
  for (let start = 0; start <= markdown.length; ) {
    let end = markdown.indexOf('\n', start);
    if (end === -1) end = markdown.length;
    const line = markdown.slice(start, end);
    start = end + 1;
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence)) fence = undefined;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      fence = opening[1];
      cost.blocks++;
      previousBlank = false;
      continue;
    }
    const blank = line.trim() === '';
    if (!blank && (previousBlank || BLOCK_START.test(line))) cost.blocks++;
    if (HEADING.test(line)) cost.headings++;
    if (!blank) cost.inlineMarks += inlineMarks(line);
    previousBlank = blank;
    if (end === markdown.length) break;
    if (cost.blocks > REVIEW_BUDGET.blocks.limit || cost.headings > REVIEW_BUDGET.headings.limit || cost.inlineMarks > REVIEW_BUDGET.inlineMarks.limit) {
      const scale = markdown.length / start;
      return { blocks: Math.round(cost.blocks * scale), headings: Math.round(cost.headings * scale), inlineMarks: Math.round(cost.inlineMarks * scale), estimated: true };
    }
  }
  return cost;
}

/** `*`, `` ` ``, `[`, and `_` where it can open or close emphasis (not inside a word, as in snake_case). */
function inlineMarks(line: string): number {
  let marks = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === 42 /* * */ || code === 96 /* ` */ || code === 91 /* [ */) marks++;
    else if (code === 95 /* _ */ && !(isWordChar(line.charCodeAt(i - 1)) && isWordChar(line.charCodeAt(i + 1)))) marks++;
  }
  return marks;
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;
}

/**
 * The first measure over its limit, said as "about N blocks (…); the limit is L (x× over)", or
 * undefined when every measure is within its limit. Callers say what was not done.
 */
export function overBudget(cost: ReviewCost): string | undefined {
  for (const measure of Object.keys(REVIEW_BUDGET) as BudgetedMeasure[]) {
    const { limit, what } = REVIEW_BUDGET[measure];
    if (cost[measure] > limit) {
      return `about ${formatCount(cost[measure])} ${what}; the limit is ${formatCount(limit)} (${(cost[measure] / limit).toFixed(1)}× over)`;
    }
  }
  return undefined;
}

/** What to do about a review over budget. */
export const SPLIT_ADVICE = 'Split it into several reviews, or present a summary that links to the details.';

/**
 * A whole number with thousands separators ("70,115"). Not toLocaleString: its first call loads
 * ICU's number data, tens of ms on the extension host's thread.
 */
export const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** Why `markdown` is refused before any parse ("The review has about …, so it was not shown. …"), or undefined. */
export function budgetRefusal(markdown: string): string | undefined {
  const excess = overBudget(measureReview(markdown));
  return excess === undefined ? undefined : `The review has ${excess}, so it was not shown. ${SPLIT_ADVICE}`;
}
