// update-section without parsing the whole review again: the review's sections are known, so only
// the new content is parsed, and the sections after it move by the lines it added or removed; a
// large review is not parsed again on the host's thread for each update. When the known sections
// do not match the text (stored state is untrusted), or the new content could change how the text
// after it parses (an unclosed fence), the whole review is parsed.

import type { Section } from '../../../shared/protocol';
import {
  appendMarkdown,
  countNewlines,
  findSections,
  sameHeading,
  toSections,
  withoutHashes,
  withoutLeadingBlankLines,
  type SectionSpan,
} from '../render/sections';

export interface SectionUpdate {
  readonly markdown: string;
  readonly sections: Section[];
  /** The text the update took out of the review ('' when it only added). */
  readonly removed: string;
  /** The 0-based line of the result where the new text starts: everything above it is as it was. */
  readonly changedFrom: number;
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
/** A setext heading's text is a paragraph; past this many lines, the known section is not trusted. */
const MAX_SETEXT_LINES = 100;

/**
 * Replaces the body under the first heading titled `section`, up to the next heading of the same
 * or a higher level. When `content` starts with that same heading, it replaces the heading too
 * (so an assistant may send the section whole). With no such heading, appends `## section`.
 */
export function updateSection(
  base: { readonly markdown: string; readonly sections?: readonly Section[] },
  section: string,
  content: string,
): SectionUpdate {
  const { markdown } = base;
  const lines = markdown.split('\n');
  const spans = (base.sections && spansOf(base.sections, lines)) ?? findSections(markdown);
  const index = spans.findIndex((span) => sameHeading(span.title, section));
  const contentSpans = findSections(content);
  const contentHasHeading =
    contentSpans.length > 0 &&
    contentSpans[0].headingStart === firstNonBlankLine(content) &&
    sameHeading(contentSpans[0].title, section);
  if (index === -1) {
    const added = contentHasHeading ? content : `## ${withoutHashes(section).trim()}\n\n${content}`;
    const kept = markdown.trimEnd();
    const result = appendMarkdown(markdown, added);
    if (kept === '')
      return { markdown: result, sections: toSections(findSections(result)), removed: '', changedFrom: 0 };
    // The same arithmetic as an append: the kept text, one blank line, then the addition.
    const body = withoutLeadingBlankLines(added);
    return joined({
      result,
      before: spans,
      body,
      bodyStart: countNewlines(kept) + 2,
      after: [],
      shift: 0,
      removed: '',
    });
  }
  const target = spans[index];
  const next = spans.slice(index + 1).find((span) => span.level <= target.level);
  const cut = contentHasHeading ? target.headingStart : target.bodyStart;
  // trimEnd(), not .replace(/\s+$/, ''): the regex is quadratic on a run of blank lines.
  const head = lines.slice(0, cut).join('\n').trimEnd();
  const body = content.trim();
  const tail = next ? lines.slice(next.headingStart).join('\n').trimEnd() : '';
  const removed = lines.slice(cut, next ? next.headingStart : lines.length).join('\n');
  const result = [head, body, tail].filter((part) => part !== '').join('\n\n') + '\n';
  // Where the body and the tail start in the result: each part is followed by one blank line.
  const bodyStart = head === '' ? 0 : countNewlines(head) + 2;
  const tailStart = body === '' ? bodyStart : bodyStart + countNewlines(body) + 2;
  const before = spans.filter((span) => span.headingStart < cut);
  const after = next ? spans.slice(spans.indexOf(next)) : [];
  return joined({ result, before, body, bodyStart, after, shift: tailStart - (next?.headingStart ?? 0), removed });
}

/** replaceSection's text alone, for callers that do not keep sections. */
export function replaceSection(markdown: string, section: string, content: string): string {
  return updateSection({ markdown }, section, content).markdown;
}

/** A section update's result, with where its parts came from. */
interface JoinedParts {
  readonly result: string;
  /** Sections kept as they were, before the body. */
  readonly before: readonly SectionSpan[];
  readonly body: string;
  /** The body's first line in `result`. */
  readonly bodyStart: number;
  /** Sections after the body, each moved by `shift` lines. */
  readonly after: readonly SectionSpan[];
  readonly shift: number;
  readonly removed: string;
}

/** The sections of `result`, from those kept before the body, the body's own, and those after it, moved. */
function joined({ result, before, body, bodyStart, after, shift, removed }: JoinedParts): SectionUpdate {
  // A heading after the body proves that the body closed everything it opened (a fence, a comment).
  const probe = findSections(`${body}\n\n# end\n`);
  const closed =
    probe.length > 0 &&
    probe[probe.length - 1].title === 'end' &&
    probe[probe.length - 1].headingStart === countNewlines(body) + 2;
  if (!closed) return { markdown: result, sections: toSections(findSections(result)), removed, changedFrom: bodyStart };
  const moved = (span: SectionSpan, by: number): Section => ({
    level: span.level,
    title: span.title,
    line: span.line + by,
  });
  return {
    markdown: result,
    sections: [
      ...toSections(before),
      ...probe.slice(0, -1).map((span) => moved(span, bodyStart)),
      ...after.map((span) => moved(span, shift)),
    ],
    removed,
    changedFrom: bodyStart,
  };
}

/** The spans of `sections` in `lines`, or undefined when a section's heading is not where it says. */
function spansOf(sections: readonly Section[], lines: readonly string[]): SectionSpan[] | undefined {
  const spans: SectionSpan[] = [];
  let previous = -1;
  for (const section of sections) {
    const start = section.line - 1;
    if (start <= previous || start >= lines.length || lines[start].trim() === '') return undefined;
    let bodyStart = start + 1;
    if (!ATX_HEADING.test(lines[start])) {
      while (
        bodyStart < lines.length &&
        bodyStart - start <= MAX_SETEXT_LINES &&
        !SETEXT_UNDERLINE.test(lines[bodyStart])
      )
        bodyStart++;
      if (bodyStart >= lines.length || bodyStart - start > MAX_SETEXT_LINES) return undefined;
      bodyStart++;
    }
    spans.push({ ...section, headingStart: start, bodyStart });
    previous = start;
  }
  return spans;
}

function firstNonBlankLine(text: string): number {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.trim() !== '');
  return index === -1 ? 0 : index;
}
