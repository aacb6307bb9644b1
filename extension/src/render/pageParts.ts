// A review's page as its parts are written (markdownRenderer.ts): the slices in order, each told
// to whoever shows the page as soon as it is written, and the page's size checked as it grows.
// Past MAX_RENDERED_HTML_BYTES nothing more is told, so a page the review is refused for never
// reaches the panel in full; the rest is still written, so the refusal names the page's real size.

import { MAX_RENDERED_HTML_BYTES } from '../../../shared/reviewBudget';
import { checkPageSize } from './pageBudget';
import { joinSlices, type SlicedPage } from './pageSlices';

export class PageParts {
  private readonly slices: string[] = [];
  private length = 0;

  /** `keep` false: the slices told are the page's only copy (the render worker's, posted as they come), and `finish` gives no HTML. */
  constructor(
    private readonly onSlice?: (html: string) => void,
    private readonly keep = true,
  ) {}

  add(html: string): void {
    if (this.keep) this.slices.push(html);
    this.length += html.length;
    if (this.length <= MAX_RENDERED_HTML_BYTES) this.onSlice?.(html);
  }

  /** The page, or RenderBudgetError when it is over the limit (pageBudget.ts). */
  finish(): SlicedPage {
    checkPageSize(this.length);
    return joinSlices(this.slices);
  }
}
