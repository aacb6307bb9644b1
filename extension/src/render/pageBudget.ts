// The last of a review's cost limits, checked on the page itself: whatever made it, HTML past this
// size would freeze the panel's thread in layout.

import { MAX_RENDERED_HTML_BYTES, SPLIT_ADVICE } from '../../../shared/reviewBudget';
import { mib } from '../../../shared/byteSize';

/** The page would be too large for the panel to lay out: the review is refused, not shown. */
export class RenderBudgetError extends Error {
  /** `message` as made by `forPage`, or as it came back from the render worker. */
  constructor(message: string) {
    super(message);
    this.name = 'RenderBudgetError';
  }

  static forPage(htmlLength: number): RenderBudgetError {
    return new RenderBudgetError(
      `The review's page would be ${mib(htmlLength)} MiB of HTML; the limit is ${mib(MAX_RENDERED_HTML_BYTES)} MiB ` +
        `(${(htmlLength / MAX_RENDERED_HTML_BYTES).toFixed(1)}× over), so it was not shown. ${SPLIT_ADVICE}`,
    );
  }
}

/** Throws RenderBudgetError when a page of `htmlLength` UTF-16 units is over the limit. */
export function checkPageSize(htmlLength: number): void {
  // A UTF-16 length equals the UTF-8 size of ASCII HTML, which escaped markup mostly is: close enough for a ceiling.
  if (htmlLength > MAX_RENDERED_HTML_BYTES) throw RenderBudgetError.forPage(htmlLength);
}
