// A finding's severity label and title, read from the first line of its block. The renderer reads
// them so, and a SARIF import writes each result's item to be read back so (its fingerprint is made
// from the title), which is why both take them from here.

import { FINDING_SEVERITIES, type FindingSeverity } from './findingTerms';

/** A finding's title is cut to this many characters. */
export const MAX_TITLE_CHARS = 120;

/** A block quote's `>` and a list item's marker, before a finding's label. */
const LEADING_MARKS = /^\s*(?:>\s*)*(?:(?:[-*+]|\d{1,9}[.)])\s+)?/;
// `**bug**:`, `**bug:**`, `bug:`, `_nit_:`; one label, then a colon, at the very start.
const LABEL = new RegExp(`^(\\*\\*|__|\\*|_)?(${FINDING_SEVERITIES.join('|')})(:)?\\1(:)?\\s*`, 'i');

/** The severity label at the start of a finding, and its first line without marker, label or emphasis. */
export function labelOf(markdown: string): { severity: FindingSeverity | null; title: string } {
  const { severity, rest } = splitLabel(markdown.split('\n', 1)[0]);
  return { severity, title: titleOf(rest) };
}

/** A line without its marks and its label, and the label's severity; `Bugs here` keeps its first word. */
export function splitLabel(line: string): { severity: FindingSeverity | null; rest: string } {
  const unmarked = line.replace(LEADING_MARKS, '');
  const label = LABEL.exec(unmarked);
  if (label === null || (label[3] === ':') === (label[4] === ':')) return { severity: null, rest: unmarked };
  return { severity: label[2].toLowerCase() as FindingSeverity, rest: unmarked.slice(label[0].length) };
}

/** A code span: its text is kept as written, underscores and stars included. */
const CODE_SPAN = /(`+)(.+?)\1/g;
/**
 * Emphasis marks outside code: every star, and underscores that are not inside a word. As in
 * CommonMark, `RATE_PER_SECOND` and `snake_case` are words, not emphasis, so they keep theirs.
 */
const EMPHASIS = /\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;

/** Text as a finding's title: no emphasis or code marks, spaces collapsed, at most MAX_TITLE_CHARS. */
export function titleOf(text: string): string {
  let plain = '';
  let last = 0;
  for (const span of text.matchAll(CODE_SPAN)) {
    plain += withoutMarks(text.slice(last, span.index)) + span[2];
    last = span.index + span[0].length;
  }
  plain = (plain + withoutMarks(text.slice(last))).replace(/\s+/g, ' ').trim();
  return plain.length > MAX_TITLE_CHARS ? `${plain.slice(0, MAX_TITLE_CHARS - 1)}…` : plain;
}

const withoutMarks = (text: string) => text.replace(EMPHASIS, '').replace(/`+/g, '');
