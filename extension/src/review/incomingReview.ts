// A large review on its way in: the panel shows its first screen while the window renders the
// whole of it (a second or more for 70,000 references), instead of the review it replaces. Not
// stored, and gone as soon as the call stages its review, fails or is cancelled: until then,
// nothing changed.

import { Emitter } from '../events';

export interface IncomingReviewState {
  /** The revision it will most likely have; if another change lands first, the panel catches up. */
  readonly revision: number;
  readonly title?: string;
  readonly markdown: string;
  readonly cwd?: string;
}

export class IncomingReview {
  private state: IncomingReviewState | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  get current(): IncomingReviewState | undefined {
    return this.state;
  }

  /** Shows `review` as incoming until the returned function is called (calling it again does nothing). */
  show(review: IncomingReviewState): () => void {
    this.state = review;
    this.changed.fire();
    return () => {
      if (this.state !== review) return;
      this.state = undefined;
      this.changed.fire();
    };
  }

  dispose(): void {
    this.changed.dispose();
  }
}
