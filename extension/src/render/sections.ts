// The section structure of a review: its top-level headings, found by markdown-it's own block
// parser so that a `#` inside a fenced code block or an HTML comment is never taken for one.

import MarkdownIt from 'markdown-it';
import type { Section } from '../../../shared/protocol';

/**
 * Only the block rules that decide what is a heading, and no inline pass at all (a heading's
 * title is its inline token's raw content), so that finding a large review's sections is quick.
 */
const blockParser = new MarkdownIt('zero').enable([
  'heading',
  'lheading',
  'fence',
  'code',
  'blockquote',
  'list',
  'html_block',
]);
blockParser.core.ruler.disable(['inline', 'text_join']);

export interface SectionSpan extends Section {
  /** 0-based line where the heading starts. */
  readonly headingStart: number;
  /** 0-based line after the heading (its body starts here). */
  readonly bodyStart: number;
}

export function findSections(markdown: string): SectionSpan[] {
  const tokens = blockParser.parse(markdown, {});
  const sections: SectionSpan[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== 'heading_open' || token.level !== 0 || !token.map) continue;
    sections.push({
      level: Number(token.tag.slice(1)),
      title: tokens[i + 1]?.content.trim() ?? '',
      line: token.map[0] + 1,
      headingStart: token.map[0],
      bodyStart: token.map[1],
    });
  }
  return sections;
}

export function toSections(spans: readonly SectionSpan[]): Section[] {
  return spans.map(({ level, title, line }) => ({ level, title, line }));
}

/** Heading text compared loosely: case, surrounding `#`s and runs of spaces do not matter. */
export function sameHeading(a: string, b: string): boolean {
  // Each regex here is linear: no nested or adjacent quantifiers over the same characters.
  const normalize = (text: string) => withoutHashes(text).replace(/\s+/g, ' ').trim().toLowerCase();
  return normalize(a) === normalize(b);
}

/** Joins two pieces of markdown with one blank line, so that the second starts a new block. */
export function appendMarkdown(existing: string, addition: string): string {
  // trimEnd() strips exactly what /\s+$/ would, in linear time: that regex restarts its scan at
  // every whitespace character, which is quadratic on a long run of blank lines.
  const kept = existing.trimEnd();
  return kept === '' ? addition : `${kept}\n\n${withoutLeadingBlankLines(addition)}`;
}

/**
 * `text` without its leading blank lines (what /^\s*\n/ removes), without backtracking: the
 * whitespace before the first visible character, up to and including its last newline.
 */
export function withoutLeadingBlankLines(text: string): string {
  const firstVisible = text.length - text.trimStart().length;
  const lastNewline = text.lastIndexOf('\n', firstVisible - 1);
  return firstVisible === 0 || lastNewline === -1 ? text : text.slice(lastNewline + 1);
}

/** Leading `#`s and the whitespace after them, removed with plain scans. */
export function withoutHashes(text: string): string {
  let at = 0;
  while (text[at] === '#') at++;
  return at === 0 ? text : text.slice(at).trimStart();
}

/** The number of line breaks in `text`, without splitting it. */
export function countNewlines(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
