// How one present-review call turns the current markdown into the next: replace, append or
// update-section. Pure, and linear in the size of the review for every mode.

import type { ReviewMode, Section } from '../../../shared/protocol';
import { appendMarkdown, findSections, replaceSection, toSections, withoutLeadingBlankLines, type SectionSpan } from './sections';

/**
 * Sections already found for one text (present-review's early render finds them in the render
 * worker), so that composing does not parse that text again on the host's thread.
 */
export interface KnownSections {
  readonly markdown: string;
  readonly spans: readonly SectionSpan[];
}

export interface Composed {
  readonly markdown: string;
  readonly sections: Section[];
  /** For an append: the text added at the end of `markdown`, and the 0-based line where it starts. */
  readonly appended?: { readonly markdown: string; readonly startLine: number };
}

export function compose(
  base: { readonly markdown: string; readonly sections: readonly Section[] } | undefined,
  request: { readonly content: string; readonly mode: ReviewMode; readonly section?: string },
  known?: KnownSections,
): Composed {
  const sectionsOf = (markdown: string) => (known?.markdown === markdown ? known.spans : findSections(markdown));
  const whole = (markdown: string): Composed => ({ markdown, sections: toSections(sectionsOf(markdown)) });
  if (request.mode === 'replace') return whole(request.content);
  if (request.mode === 'update-section') return whole(replaceSection(base?.markdown ?? '', request.section ?? '', request.content));
  const kept = base?.markdown.trimEnd() ?? '';
  if (kept === '') {
    const markdown = appendMarkdown(kept, request.content);
    return { ...whole(markdown), appended: { markdown, startLine: 0 } };
  }
  // Only the new part is parsed, so a thousand appends stay linear, not quadratic. The kept part
  // ends without a newline, and appendMarkdown adds exactly one blank line after it.
  const addition = withoutLeadingBlankLines(request.content);
  const markdown = appendMarkdown(kept, request.content);
  const startLine = countNewlines(kept) + 2;
  const added = toSections(sectionsOf(addition)).map((section) => ({ ...section, line: section.line + startLine }));
  return { markdown, sections: [...base!.sections, ...added], appended: { markdown: addition, startLine } };
}

function countNewlines(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
