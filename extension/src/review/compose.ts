// How one present-review call turns the current markdown into the next: replace, append or
// update-section. Pure, and linear in the size of the review for every mode.

import type { ReviewMode, Section } from '../../../shared/protocol';
import { appendMarkdown, findSections, replaceSection, toSections, withoutLeadingBlankLines } from './sections';

export interface Composed {
  readonly markdown: string;
  readonly sections: Section[];
  /** For an append: the text added at the end of `markdown`, and the 0-based line where it starts. */
  readonly appended?: { readonly markdown: string; readonly startLine: number };
}

export function compose(
  base: { readonly markdown: string; readonly sections: readonly Section[] } | undefined,
  request: { readonly content: string; readonly mode: ReviewMode; readonly section?: string },
): Composed {
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
  const added = toSections(findSections(addition)).map((section) => ({ ...section, line: section.line + startLine }));
  return { markdown, sections: [...base!.sections, ...added], appended: { markdown: addition, startLine } };
}

function whole(markdown: string): Composed {
  return { markdown, sections: toSections(findSections(markdown)) };
}

function countNewlines(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
