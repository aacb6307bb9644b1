// How one present-review call turns the current markdown into the next: replace, append or
// update-section. Pure, and linear in the size of the review for every mode.

import type { ReviewMode, Section } from '../../../shared/protocol';
import { measureReview, type BudgetedMeasure, type ReviewCost } from '../../../shared/reviewBudget';
import { appendMarkdown, countNewlines, findSections, toSections, withoutLeadingBlankLines } from '../render/sections';
import { updateSection } from './sectionUpdate';

/**
 * Sections already found for one text (present-review's early render finds them in the render
 * worker; an earlier review brings its own), so that composing does not parse a large review
 * again on the host's thread.
 */
export interface KnownSections {
  readonly markdown: string;
  readonly sections: readonly Section[];
}

export interface Composed {
  readonly markdown: string;
  readonly sections: Section[];
  /** For an append: the text added at the end of `markdown`, and the 0-based line where it starts. */
  readonly appended?: { readonly markdown: string; readonly startLine: number };
  /** For update-section: the text taken out, and the text put in. */
  readonly replaced?: { readonly removed: string; readonly added: string };
  /** For append and update-section: the 0-based line where the new text starts; the lines above are as they were. */
  readonly changedFrom?: number;
}

export function compose(
  base: { readonly markdown: string; readonly sections: readonly Section[] } | undefined,
  request: { readonly content: string; readonly mode: ReviewMode; readonly section?: string },
  known?: KnownSections,
): Composed {
  const sectionsOf = (markdown: string): readonly Section[] =>
    known?.markdown === markdown ? known.sections : toSections(findSections(markdown));
  const whole = (markdown: string): Composed => ({ markdown, sections: [...sectionsOf(markdown)] });
  if (request.mode === 'replace') return whole(request.content);
  if (request.mode === 'update-section') {
    const { markdown, sections, removed, changedFrom } = updateSection(
      base ?? { markdown: '' },
      request.section ?? '',
      request.content,
    );
    return { markdown, sections, replaced: { removed, added: request.content }, changedFrom };
  }
  const kept = base?.markdown.trimEnd() ?? '';
  if (kept === '') {
    const markdown = appendMarkdown(kept, request.content);
    return { ...whole(markdown), appended: { markdown, startLine: 0 }, changedFrom: 0 };
  }
  // Only the new part is parsed, so a thousand appends stay linear, not quadratic. The kept part
  // ends without a newline, and appendMarkdown adds exactly one blank line after it.
  const addition = withoutLeadingBlankLines(request.content);
  const markdown = appendMarkdown(kept, request.content);
  const startLine = countNewlines(kept) + 2;
  const added = sectionsOf(addition).map((section) => ({ ...section, line: section.line + startLine }));
  return {
    markdown,
    sections: [...base!.sections, ...added],
    appended: { markdown: addition, startLine },
    changedFrom: startLine,
  };
}

/**
 * The cost (reviewBudget.ts) of what `compose` made, from the cost of its base: an append
 * measures only what it adds, an update-section what it takes out and puts in, so that a
 * thousand appends to a large review stay linear. The measures are upper estimates either way.
 */
export function composedCost(baseCost: ReviewCost | undefined, composed: Composed): ReviewCost {
  const change = composed.appended ? { added: composed.appended.markdown, removed: '' } : composed.replaced;
  if (!baseCost || !change) return measureReview(composed.markdown);
  const added = measureReview(change.added);
  const removed = measureReview(change.removed);
  const cost = { ...baseCost };
  for (const measure of Object.keys(cost) as BudgetedMeasure[])
    cost[measure] = Math.max(0, cost[measure] + added[measure] - removed[measure]);
  return cost;
}
