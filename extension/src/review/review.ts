// A review as the window holds it, the change that makes one, and what listeners hear: the
// vocabulary of the review store, kept apart from it so that what the store uses (stored state,
// composition) can speak of reviews without importing the store.

import { MAX_REVIEW_BYTES, type ReviewMode, type Section } from '../../../shared/protocol';

export interface Review {
  readonly revision: number;
  readonly title?: string;
  readonly markdown: string;
  /** The presenting assistant's working directory: relative references resolve there first. */
  readonly cwd?: string;
  /** The presenting assistant's name (MCP clientInfo), shown as the author of its findings. */
  readonly assistant?: string;
  readonly sections: readonly Section[];
  readonly updatedAt: string;
}

export interface PresentRequest {
  readonly content: string;
  readonly mode: ReviewMode;
  readonly section?: string;
  readonly title?: string;
  readonly cwd?: string;
  readonly assistant?: string;
}

export interface ReviewChange {
  readonly review: Review | undefined;
  readonly kind: ReviewMode | 'clear';
  readonly previousRevision: number;
  /** Set for an append: `review.markdown` ends with `markdown`, which starts on 0-based line `startLine`. */
  readonly appended?: { readonly markdown: string; readonly startLine: number };
}

/** A change refused because the review would outgrow what get-review can send back. */
export class ReviewTooLargeError extends Error {
  constructor(mode: ReviewMode, why = `larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB`) {
    super(
      `This ${mode} would make the review ${why}, so it was not applied. ` +
        'Present a shorter review with mode "replace", or shorten a section with "update-section".',
    );
    this.name = 'ReviewTooLargeError';
  }
}
