// A large review on its way in: the panel shows its page as the window renders it, slice by slice
// from the first screen, instead of the review it replaces. Not stored, and gone as soon as the
// call stages its review, fails or is cancelled: until then, nothing changed.

import { Disposable } from '../../../shared/lifecycle';
import { Emitter } from '../emitter';
import type { StreamedPage } from '../render/streamedPage';

export interface IncomingReviewState {
  /** The revision it will most likely have; if another change lands first, the panel catches up. */
  readonly revision: number;
  readonly title?: string;
  readonly markdown: string;
  readonly cwd?: string;
  /** Its page, as the render writes it. */
  readonly page: StreamedPage;
}

export class IncomingReview extends Disposable {
  private state: IncomingReviewState | undefined;
  private readonly changed = this.register(new Emitter<void>());
  readonly onDidChange = this.changed.event;

  /** The review on its way in, once its first slice is written: until then the panel keeps what it shows. */
  get current(): IncomingReviewState | undefined {
    return this.state && this.state.page.length > 0 ? this.state : undefined;
  }

  /** Shows `review` as incoming, from its first slice, until the returned function is called (calling it again does nothing). */
  show(review: IncomingReviewState): () => void {
    this.state = review;
    let stop = () => {};
    if (review.page.length > 0) this.changed.fire();
    else {
      stop = review.page.onChange(() => {
        if (review.page.length === 0) return;
        stop();
        if (this.state === review) this.changed.fire();
      });
    }
    return () => {
      stop();
      if (this.state !== review) return;
      this.state = undefined;
      this.changed.fire();
    };
  }
}
