// Where a review can be cut into parts that markdown-it parses one after another, so that the first
// screen is shown before the rest is parsed. A cheap scan of the lines cuts at a blank line before a
// line that starts no container and no fence (markdownRenderer.ts joins a part to the next when a
// fence ran past its cut), and inside a long tight bullet list where listChunks.ts cuts it too. No
// cut falls before the last line that could hold a link reference definition, which every part sees.

import { FIRST_SCREEN_LINES } from './pageSlices';
import { LIST_CHUNK_ITEMS } from './listChunks';

export interface ReviewPart {
  /** Where it starts and ends in the markdown (UTF-16 offsets). */
  readonly from: number;
  readonly to: number;
  /** The 0-based line it starts on. */
  readonly line: number;
  /** It starts inside a long bullet list that began in the part before: its first list continues that one. */
  readonly continuesList: boolean;
  /** It ends inside a long bullet list, which the next part continues; the line (0-based, in the review) that list starts on here. */
  readonly listFrom?: number;
}

/** A review shorter than this (and than FIRST_SCREEN_LINES) is one part: a screen or less. */
export const FIRST_PART_CHARS = 64 * 1024;
/** The part after the first, about; each later one doubles, up to MAX_PART_CHARS. */
const SECOND_PART_CHARS = 64 * 1024;
/** The largest part: parsed, looked up and written in one go in the render worker. */
export const MAX_PART_CHARS = 1024 * 1024;

const BLANK = /^[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const BULLET_ITEM = /^([-+*])[ \t]+\S/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const ORDERED_MARKER = /\d{1,9}[.)]/y;
/** What may stand before a link reference definition's `[` on its line: indentation, quote and list markers. */
const DEFINITION_PREFIX = /^[ \t>+*\-\d.)]*$/;
/** A link label then a colon, which may run over lines (CommonMark allows 999 characters). */
const DEFINITION_LABEL = /\[(?:[^[\]\\]|\\[\s\S]){0,999}\]:/y;

interface Cut {
  readonly line: number;
  readonly at: number;
  /** Inside a long bullet list: the line that list starts on. */
  readonly listFrom?: number;
}

/** The parts of `markdown`, in order; one part for a short review, or one that cannot be cut. */
export function reviewParts(markdown: string): ReviewPart[] {
  const whole: ReviewPart[] = [{ from: 0, to: markdown.length, line: 0, continuesList: false }];
  // A lone CR is a line end to markdown-it; such text is rare enough to be rendered in one part.
  if (markdown.length < FIRST_PART_CHARS && countLinesBelow(markdown, FIRST_SCREEN_LINES)) return whole;
  if (/\r(?!\n)/.test(markdown)) return whole;
  const { cuts, definitionsEnd } = scanCuts(markdown);
  const usable = cuts.filter((cut) => cut.line > definitionsEnd);
  return usable.length === 0 ? whole : partsAt(markdown, usable);
}

function countLinesBelow(text: string, limit: number): boolean {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines < limit; at = text.indexOf('\n', at + 1)) lines++;
  return lines < limit;
}

/** Chooses cuts: the first part ends after about a screen, and each later one is about twice the one before. */
function partsAt(markdown: string, cuts: readonly Cut[]): ReviewPart[] {
  const parts: ReviewPart[] = [];
  let start: Cut = { line: 0, at: 0 };
  let continuesList = false;
  let target = SECOND_PART_CHARS;
  for (const cut of cuts) {
    const first = parts.length === 0;
    const bigEnough = first
      ? cut.line >= FIRST_SCREEN_LINES || cut.at >= FIRST_PART_CHARS
      : cut.at - start.at >= target;
    if (!bigEnough) continue;
    parts.push({
      from: start.at,
      to: cut.at,
      line: start.line,
      continuesList,
      ...(cut.listFrom !== undefined ? { listFrom: Math.max(cut.listFrom, start.line) } : {}),
    });
    if (!first) target = Math.min(target * 2, MAX_PART_CHARS);
    continuesList = cut.listFrom !== undefined;
    start = cut;
  }
  parts.push({ from: start.at, to: markdown.length, line: start.line, continuesList });
  return parts;
}

/** A long bullet list being read: cuts inside it count only if it turns out tight and ends cleanly. */
interface ListRun {
  readonly marker: string;
  readonly line: number;
  readonly cuts: Cut[];
}

/**
 * Every place a part may start, and the last line a link reference definition may end on
 * (-1: none). One pass over the lines; a line is only ever matched against a few short patterns.
 */
function scanCuts(markdown: string): { cuts: Cut[]; definitionsEnd: number } {
  const cuts: Cut[] = [];
  let definitionsEnd = -1;
  let fence: { char: string; length: number } | undefined;
  let previousBlank = true;
  /** The line before the current one is an ATX heading (a list may start right below it). */
  let previousHeading = false;
  let run: ListRun | undefined;
  /** A run that ended at a blank line: its cuts count if the next line that is not blank ends the list. */
  let endedRun: ListRun | undefined;
  let line = 0;
  /** The next `[` at or after the current line (-1: none): found once, not once a line. */
  let bracket = markdown.indexOf('[');
  for (let at = 0; at <= markdown.length; line++) {
    const newline = markdown.indexOf('\n', at);
    const end = newline === -1 ? markdown.length : newline;
    const textEnd = markdown.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const first = at < textEnd ? markdown.charCodeAt(at) : -1;
    // Most lines start with a character no pattern below can match: they are not even sliced.
    const indented = first === 32 || first === 9;
    const text =
      indented ||
      first === 96 ||
      first === 126 ||
      first === 45 ||
      first === 43 ||
      first === 42 ||
      first === 35 ||
      first === 95
        ? markdown.slice(at, textEnd)
        : '';
    const blank = first === -1 || (indented && BLANK.test(text));
    while (bracket !== -1 && bracket < at) bracket = markdown.indexOf('[', at);
    // On every line, fenced or not: the scan may be wrong about a fence (markdownRenderer.ts checks).
    if (bracket !== -1 && bracket < textEnd && DEFINITION_PREFIX.test(markdown.slice(at, bracket))) {
      DEFINITION_LABEL.lastIndex = bracket;
      if (DEFINITION_LABEL.test(markdown))
        definitionsEnd = Math.max(definitionsEnd, lineOf(markdown, { line, at }, DEFINITION_LABEL.lastIndex));
    }
    if (fence) {
      const close = text === '' ? undefined : FENCE_CLOSE.exec(text)?.[1];
      if (close && close[0] === fence.char && close.length >= fence.length) fence = undefined;
      run = endedRun = undefined;
    } else if (!blank) {
      const plain = startsPlain(markdown, at, first);
      if (endedRun) {
        if (plain) for (const cut of endedRun.cuts) cuts.push(cut);
        endedRun = undefined;
      }
      if (previousBlank && plain) cuts.push({ line, at });
      const item = text === '' ? undefined : BULLET_ITEM.exec(text)?.[1];
      if (item !== undefined && !THEMATIC_BREAK.test(text)) {
        if (run && run.marker === item && !previousBlank) {
          if ((line - run.line) % LIST_CHUNK_ITEMS === 0) run.cuts.push({ line, at, listFrom: run.line });
        } else {
          run = previousBlank || previousHeading ? { marker: item, line, cuts: [] } : undefined;
        }
      } else {
        run = undefined;
      }
      const open = text === '' ? null : FENCE_OPEN.exec(text);
      if (open && !(open[1][0] === '`' && open[2].includes('`'))) fence = { char: open[1][0], length: open[1].length };
    } else if (run) {
      endedRun = run;
      run = undefined;
    }
    previousBlank = blank;
    previousHeading = text !== '' && !blank && ATX_HEADING.test(text);
    if (newline === -1) break;
    at = newline + 1;
  }
  // A list that runs to the end of the review ends cleanly there.
  if (!fence) for (const cut of run?.cuts ?? endedRun?.cuts ?? []) cuts.push(cut);
  cuts.sort((a, b) => a.at - b.at);
  return { cuts, definitionsEnd };
}

/**
 * Starts no container, fence, list item or lazy continuation: a line at the left margin that a
 * blank line before it makes the start of a new top-level block, whatever came above.
 */
function startsPlain(markdown: string, at: number, first: number): boolean {
  // space, tab, '>', '-', '+', '*', '`', '~'
  if (
    first === 32 ||
    first === 9 ||
    first === 62 ||
    first === 45 ||
    first === 43 ||
    first === 42 ||
    first === 96 ||
    first === 126
  )
    return false;
  if (!(first >= 48 && first <= 57)) return true;
  ORDERED_MARKER.lastIndex = at;
  return !ORDERED_MARKER.test(markdown);
}

/** The 0-based line of offset `to`, counting on from a place known to be 0-based `line` at offset `at`. */
function lineOf(markdown: string, known: { readonly line: number; readonly at: number }, to: number): number {
  let line = known.line;
  for (let at = markdown.indexOf('\n', known.at); at !== -1 && at < to; at = markdown.indexOf('\n', at + 1)) line++;
  return line;
}
