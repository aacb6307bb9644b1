// What a review may cost to show, beyond its bytes, counted twice with one authority: here, one
// linear pass over the lines estimates the structure, so that the window refuses a pathological
// review before it reaches the renderer; the render worker then counts what markdown-it makes
// (render/renderBudget.ts) against RENDER_BUDGET, and its counts decide, since an estimate can be
// fooled and the parser's own tokens cannot. A refusal names the limit broken, by how much, and
// what to do. The limits leave room for the bench's largest reviews (bench/budget.mjs).

/** The limits of the estimate before the parse, each with the words a refusal uses for it. */
export const REVIEW_BUDGET = {
  /** Paragraphs, headings, list items, quotes, tables and code blocks. */
  blocks: { limit: 250_000, what: 'blocks (paragraphs, headings, list items, code blocks)' },
  headings: { limit: 50_000, what: 'headings' },
  /** Emphasis, strikethrough, code-span, link and autolink delimiters: each pair is an element in the page. */
  inlineMarks: { limit: 500_000, what: 'inline marks (*, _, ~, `, [, < that make emphasis, code and links)' },
  /**
   * Everything that becomes an element: blocks, marks, line breaks inside paragraphs, table cells
   * and file references. The same limit as the render's own count of elements (RENDER_BUDGET).
   */
  elements: {
    limit: 750_000,
    what: 'elements in its page (blocks, emphasis, links and references, line breaks, table cells)',
  },
} as const;

/**
 * The limits of what the renderer counts as markdown-it makes it (render/renderBudget.ts): with room
 * above what the bench's largest review needs, and each low enough to stop a hostile input early.
 */
export const RENDER_BUDGET = {
  /** Lines, counted before the parse: markdown-it keeps five numbers a line, and walks every block rule over each. */
  lines: { limit: 1_000_000, what: 'lines' },
  /** markdown-it's tokens, inline children included: what the parse holds in memory. */
  tokens: { limit: 2_000_000, what: 'markdown tokens (blocks, text runs, marks, links, line breaks, table cells)' },
  /** Elements the page will hold, references linked: what the panel must lay out. */
  elements: { limit: REVIEW_BUDGET.elements.limit, what: REVIEW_BUDGET.elements.what },
  /**
   * File references, in prose, inline code and links: each is a link, a lookup and a line in the
   * report. Counted as they are found, so that 10 MiB of references stops at this many, not at
   * the elements' limit with three times the memory.
   */
  references: { limit: 250_000, what: 'file references' },
  /** Bytes of link destinations, each counted where it is used: a long one used many times would be written into the page each time. */
  linkBytes: { limit: 16 * 1024 * 1024, what: 'bytes of link destinations (each counted every time it is used)' },
  /** Cells in one table row: a row cannot be cut, and a table lays out all its columns together. */
  tableColumns: { limit: 256, what: 'columns in one table' },
  /** Elements in one top-level block once long paragraphs, lists and tables are cut (blockChunks.ts): the panel lays out a block whole. */
  blockElements: {
    limit: 20_000,
    what: 'elements, which cannot be cut (a heading, a quote, a list item or a table row)',
  },
} as const;

/** The page's HTML: past this the panel's thread spends seconds on layout, whatever made it. */
export const MAX_RENDERED_HTML_BYTES = 48 * 1024 * 1024;

export type BudgetedMeasure = keyof typeof REVIEW_BUDGET;
export type ReviewCost = Record<BudgetedMeasure, number>;
export type RenderMeasure = keyof typeof RENDER_BUDGET;

/**
 * An estimate before the parse, with two maxima that a sum over appends would not keep: the
 * widest table, and the most elements in one block the renderer cannot cut (a heading, a quote, a
 * list item).
 */
interface MeasuredInDetail {
  readonly cost: ReviewCost & { estimated?: true };
  readonly widestTable: number;
  readonly largestBlock: number;
  /** At most what link destinations write into the page: each `[` as a use of the longest reference definition. */
  readonly linkBytes: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
// A line that starts a block of its own even right after a paragraph line: a heading, a quote, a
// list item, a table row, a fence, a thematic break.
const BLOCK_START = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|\||`{3,}|~{3,})/;
// A table cell counts as two elements: it is one, but also three tokens (markdown-it fills a short
// row's cells in), so a review of cells within the elements' limit stays within the tokens' too.
const CELL_WEIGHT = 2;
// A block the renderer does not cut: a quote or a list item (a heading is one line).
const UNCUTTABLE_START = /^ {0,3}(?:>|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
// A table's delimiter row: `|---|:-:|`, with or without the outer pipes, at least one pipe.
// A link reference definition, `[label]: destination "title"`: every `[label]` writes what follows the colon again.
const DEFINITION = /^ {0,3}\[[^\]]{1,999}\]:(.*)$/;
const TABLE_DELIMITER = /^ {0,3}\|?(?:\s*:?-+:?\s*\|)+\s*(?::?-+:?\s*)?$|^ {0,3}\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$/;

/**
 * Counts, in linear time, an estimate of what markdown-it would make of the text. Lines in a
 * fenced code block count only as that one block. Once a measure is over its limit the rest is
 * not read: the totals are extrapolated from the part read (`estimated`), which is enough to say
 * by how much, and keeps a pathological review's refusal quick.
 */
export function measureReview(markdown: string): ReviewCost & { estimated?: true } {
  return measureInDetail(markdown).cost;
}

function measureInDetail(markdown: string): MeasuredInDetail {
  const cost: ReviewCost = { blocks: 0, headings: 0, inlineMarks: 0, elements: 0 };
  let widestTable = 0;
  let largestBlock = 0;
  let brackets = 0;
  let longestDefinition = 0;
  /** Elements of the block being read, and whether the renderer can cut it (a paragraph can be). */
  let block = { elements: 0, cuttable: true };
  let previousHeading = false;
  let fence: string | undefined;
  let previousBlank = true;
  /** Columns of the table being read, 0 outside one; its body rows each make that many cells. */
  let tableColumns = 0;
  for (let start = 0; start <= markdown.length;) {
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
      cost.elements++;
      previousBlank = false;
      tableColumns = 0;
      continue;
    }
    const blank = line.trim() === '';
    if (blank) tableColumns = 0;
    const heading = HEADING.test(line);
    // A long list is cut into chunks (listChunks.ts), so each item counts as a block of its own.
    const uncuttable = heading || UNCUTTABLE_START.test(line);
    if (!blank && (previousBlank || previousHeading || heading || (uncuttable && !line.trimStart().startsWith('>'))))
      block = { elements: 0, cuttable: !uncuttable };
    previousHeading = heading;
    const elementsBefore = cost.elements;
    if (!blank && !previousBlank && tableColumns === 0 && line.includes('|') && TABLE_DELIMITER.test(line)) {
      // A table's delimiter row: its header and each body row after it make this many cells.
      tableColumns = countColumns(line);
      widestTable = Math.max(widestTable, tableColumns);
      cost.elements += CELL_WEIGHT * tableColumns;
    } else if (!blank && (previousBlank || BLOCK_START.test(line))) {
      cost.blocks++;
      cost.elements += tableColumns > 0 ? CELL_WEIGHT * tableColumns : 1;
    } else if (!blank) {
      // A paragraph's next line (a line break), or a table's body row.
      cost.elements += tableColumns > 0 ? CELL_WEIGHT * tableColumns : 1;
    }
    if (heading) cost.headings++;
    if (!blank) {
      const definition = DEFINITION.exec(line);
      if (definition) longestDefinition = Math.max(longestDefinition, definition[1].length);
      const { marks, openers, references } = inlineCounts(line);
      cost.inlineMarks += marks;
      // Emphasis, strikethrough and code take two marks an element; a link or autolink one.
      cost.elements += Math.ceil((marks - openers) / 2) + openers + references;
      brackets += countOf(line, '[');
    }
    block.elements += cost.elements - elementsBefore;
    if (!block.cuttable) largestBlock = Math.max(largestBlock, block.elements);
    previousBlank = blank;
    if (end === markdown.length) break;
    if (
      (Object.keys(REVIEW_BUDGET) as BudgetedMeasure[]).some((measure) => cost[measure] > REVIEW_BUDGET[measure].limit)
    ) {
      const scale = markdown.length / start;
      const scaled = { blocks: 0, headings: 0, inlineMarks: 0, elements: 0 };
      for (const measure of Object.keys(cost) as BudgetedMeasure[]) scaled[measure] = Math.round(cost[measure] * scale);
      return {
        cost: { ...scaled, estimated: true },
        widestTable,
        largestBlock,
        linkBytes: brackets * longestDefinition,
      };
    }
  }
  return { cost, widestTable, largestBlock, linkBytes: brackets * longestDefinition };
}

function countOf(line: string, char: string): number {
  let count = 0;
  for (let i = line.indexOf(char); i !== -1; i = line.indexOf(char, i + 1)) count++;
  return count;
}

function countColumns(delimiterRow: string): number {
  const cells = delimiterRow.trim().split('|');
  return cells.filter((cell) => cell.trim() !== '').length;
}

/**
 * `*`, `~`, `` ` ``, `[`, `<`, and `_` where it can open or close emphasis (not inside a word, as
 * in snake_case); and the file references (`name.ts:12`, `#L12`), each of which becomes a link.
 */
function inlineCounts(line: string): { marks: number; openers: number; references: number } {
  let marks = 0;
  let openers = 0;
  let references = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code === 91 /* [ */ || code === 60 /* < */) {
      marks++;
      openers++;
    } else if (code === 42 /* * */ || code === 96 /* ` */ || code === 126 /* ~ */) marks++;
    else if (code === 95 /* _ */ && !(isWordChar(line.charCodeAt(i - 1)) && isWordChar(line.charCodeAt(i + 1))))
      marks++;
    else if (
      (code === 58 /* : */ || code === 76) /* L */ &&
      isDigit(line.charCodeAt(i + 1)) &&
      isWordChar(line.charCodeAt(i - 1)) &&
      !isDigit(line.charCodeAt(i - 1))
    ) {
      // `x.ts:12` or `#L12`; `10:30` (a time) is not a reference, and a letter L in a word is one only after `#`.
      if (code === 58 || line.charCodeAt(i - 1) === 35) references++;
    }
  }
  return { marks, openers, references };
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** One measure's limit, and the words a refusal uses for what it counts. */
export interface Budget {
  readonly limit: number;
  readonly what: string;
}

/**
 * "about N blocks (…); the limit is L (x× over)": one measure's excess, as a refusal says it; with
 * `atLeast`, "more than N" (a count that stopped at the limit).
 */
export function describeExcess({ limit, what }: Budget, count: number, { atLeast = false } = {}): string {
  return `${atLeast ? 'more than' : 'about'} ${formatCount(count)} ${what}; the limit is ${formatCount(limit)} (${(count / limit).toFixed(1)}× over)`;
}

/**
 * The first measure over its limit, said as "about N blocks (…); the limit is L (x× over)", or
 * undefined when every measure is within its limit. Callers say what was not done.
 */
export function overBudget(cost: ReviewCost): string | undefined {
  for (const measure of Object.keys(REVIEW_BUDGET) as BudgetedMeasure[]) {
    const budget = REVIEW_BUDGET[measure];
    if (cost[measure] > budget.limit) return describeExcess(budget, cost[measure]);
  }
  return undefined;
}

/** What to do about a review over budget. */
export const SPLIT_ADVICE = 'Split it into several reviews, or present a summary that links to the details.';

/**
 * A whole number with thousands separators ("70,115"). Not toLocaleString: its first call loads
 * ICU's number data, on the extension host's thread.
 */
export const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** A refusal as the assistant reads it: "The review has about …, so it was not shown. …". */
export const refusalOf = (excess: string): string => `The review has ${excess}, so it was not shown. ${SPLIT_ADVICE}`;

/** Why `markdown` is refused before any parse, or undefined. */
export function budgetRefusal(markdown: string): string | undefined {
  const measured = measureInDetail(markdown);
  const excess =
    wideTable(measured.widestTable) ??
    overBudget(measured.cost) ??
    largeBlock(measured.largestBlock) ??
    linkBytes(measured.linkBytes);
  return excess === undefined ? undefined : refusalOf(excess);
}

function largeBlock(elements: number): string | undefined {
  const budget = RENDER_BUDGET.blockElements;
  return elements > budget.limit ? `one block of ${describeExcess(budget, elements)}` : undefined;
}

function linkBytes(bytes: number): string | undefined {
  const budget = RENDER_BUDGET.linkBytes;
  return bytes > budget.limit ? describeExcess(budget, bytes) : undefined;
}

function wideTable(columns: number): string | undefined {
  const budget = RENDER_BUDGET.tableColumns;
  return columns > budget.limit ? describeExcess(budget, columns) : undefined;
}
