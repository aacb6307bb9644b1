// Renders reviews for the panel and for present-review's reference report, resolving relative
// references against the assistant's cwd first and then the workspace folders. The last full
// render is kept, so the report and the panel share one pass over a large review.

import { renderReview, type RenderedReview } from './markdownRenderer';
import { ReferenceResolver } from './referenceResolver';

export interface RenderableReview {
  readonly revision: number;
  readonly markdown: string;
  readonly cwd?: string;
}

export class ReviewRenderer {
  private last: { revision: number; rendered: RenderedReview } | undefined;

  constructor(private readonly workspaceFolders: () => readonly string[]) {}

  render(review: RenderableReview): RenderedReview {
    if (this.last?.revision !== review.revision) {
      this.last = { revision: review.revision, rendered: this.renderFragment(review.markdown, review.cwd) };
    }
    return this.last.rendered;
  }

  /** Renders markdown that is not (or not yet) a whole review, e.g. the part an append added. */
  renderFragment(markdown: string, cwd: string | undefined): RenderedReview {
    return renderReview(markdown, new ReferenceResolver(this.roots(cwd)));
  }

  roots(cwd: string | undefined): string[] {
    const folders = this.workspaceFolders();
    return cwd ? [cwd, ...folders.filter((folder) => folder !== cwd)] : [...folders];
  }
}
