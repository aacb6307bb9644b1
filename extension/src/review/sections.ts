// The section structure of a review: its top-level headings, found by markdown-it's own block
// parser so that a `#` inside a fenced code block or an HTML comment is never taken for one.

import MarkdownIt from 'markdown-it';
import type { Section } from '../../../shared/protocol';

/** Only the block rules that decide what is a heading; no inline parsing, so it stays fast. */
const blockParser = new MarkdownIt('zero').enable(['heading', 'lheading', 'fence', 'code', 'blockquote', 'list', 'html_block']);

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
  const normalize = (text: string) => text.replace(/^#+\s*/, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return normalize(a) === normalize(b);
}

/** Joins two pieces of markdown with one blank line, so that the second starts a new block. */
export function appendMarkdown(existing: string, addition: string): string {
  if (existing.trim() === '') return addition;
  // trimEnd() strips exactly what /\s+$/ would, without the regex's scan of the whole review on every append.
  return `${existing.trimEnd()}\n\n${addition.replace(/^\s*\n/, '')}`;
}

/**
 * Replaces the body under the first heading titled `section`, up to the next heading of the same
 * or a higher level. When `content` starts with that same heading, it replaces the heading too
 * (so an assistant may send the section whole). With no such heading, appends `## section`.
 */
export function replaceSection(markdown: string, section: string, content: string): string {
  const spans = findSections(markdown);
  const index = spans.findIndex((span) => sameHeading(span.title, section));
  const contentSpans = findSections(content);
  const contentHasHeading =
    contentSpans.length > 0 &&
    contentSpans[0].headingStart === firstNonBlankLine(content) &&
    sameHeading(contentSpans[0].title, section);
  if (index === -1) {
    return appendMarkdown(markdown, contentHasHeading ? content : `## ${section.replace(/^#+\s*/, '').trim()}\n\n${content}`);
  }
  const target = spans[index];
  const next = spans.slice(index + 1).find((span) => span.level <= target.level);
  const lines = markdown.split('\n');
  const head = lines.slice(0, contentHasHeading ? target.headingStart : target.bodyStart).join('\n').replace(/\s+$/, '');
  const tail = next ? lines.slice(next.headingStart).join('\n').replace(/\s+$/, '') : '';
  return [head, content.trim(), tail].filter((part) => part !== '').join('\n\n') + '\n';
}

function firstNonBlankLine(text: string): number {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.trim() !== '');
  return index === -1 ? 0 : index;
}
