// Bringing the webview up to the review the panel shows: at most one render in flight, coalesced so
// that only the latest review is ever sent, and sent again whole when the webview lost what it had
// (a reload, a failed post) or another review is shown. No vscode here: the panel hands in its post.

import { PanelUpdates, type PanelRenderers, type PanelReview } from './panelUpdates';
import type { PanelChange } from './appendLog';
import { NO_REVIEW_REVISION, type HostToWebviewMessage } from './webviewMessages';

export interface DeliveryTarget {
  /** Posts to the webview; resolves false when it was not delivered (the webview is gone). */
  post(message: HostToWebviewMessage): PromiseLike<boolean>;
  /** A hidden webview paints nothing, so nothing is sent to it. */
  readonly visible: boolean;
  /** The review to bring the webview up to. */
  shown(): PanelReview | undefined;
  /** A render or an append is about to be posted for `review`. */
  sending(message: HostToWebviewMessage, review: PanelReview | undefined): void;
}

export class ReviewDelivery {
  private readonly updates: PanelUpdates;
  /** The current webview document has posted `ready`, so posted messages reach a listener. */
  private ready = false;
  /** A render is being prepared; its result is posted even if the review moved on meanwhile. */
  private rendering = false;
  /** The revision of the render posted and not yet acknowledged. */
  private inFlight: number | undefined;
  /** Identifies the latest post, so a late "not delivered" result cannot undo a newer one. */
  private postSequence = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    renderers: PanelRenderers,
    private readonly target: DeliveryTarget,
  ) {
    this.updates = new PanelUpdates(renderers);
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Every change to the review shown, in order. */
  record(change: PanelChange): void {
    this.updates.record(change);
    this.schedule();
  }

  /** A new document (first load, or reload after being hidden) has nothing on screen. */
  documentReady(): void {
    this.ready = true;
    this.inFlight = undefined;
    this.updates.forget();
    this.schedule();
  }

  /**
   * The webview painted `revision`. True when that is a review painted whole (or the empty
   * state), false for the first screen of a long review whose whole is still to come.
   */
  rendered(revision: number): boolean {
    const preview = revision === this.inFlight && this.updates.awaitingWhole;
    if (revision === this.inFlight) {
      this.inFlight = undefined;
      this.schedule();
    }
    return !preview;
  }

  /** A hidden webview neither paints nor acknowledges: when shown again it acks late or says ready. */
  visibilityChanged(): void {
    if (this.target.visible) this.schedule();
    else this.inFlight = undefined;
  }

  /** Another review is shown: its revisions are not comparable with what the webview holds. */
  switchReview(): void {
    this.updates.switchReview();
    this.inFlight = undefined;
    this.schedule();
  }

  /** Deferred, so a burst of synchronous changes costs one render, never run inside a change notification. */
  schedule(): void {
    if (this.flushTimer === undefined && !this.disposed) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        this.flush();
      }, 0);
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  private flush(): void {
    if (this.disposed || !this.ready || !this.target.visible || this.inFlight !== undefined || this.rendering) return;
    const review = this.target.shown();
    if (!this.updates.isBehind(review)) return;
    this.rendering = true;
    void this.updates.next(review).then((message) => {
      this.rendering = false;
      this.send(message, review);
    });
  }

  private send(message: HostToWebviewMessage, review: PanelReview | undefined): void {
    if (this.disposed) return;
    const revision = message.type === 'empty' ? NO_REVIEW_REVISION : review?.revision ?? NO_REVIEW_REVISION;
    this.target.sending(message, review);
    const sequence = ++this.postSequence;
    this.updates.posted(message, revision);
    this.inFlight = revision;
    // Changes that arrive meanwhile go out once the webview acknowledges this one.
    const failed = () => {
      if (sequence === this.postSequence) this.postFailed();
    };
    this.target.post(message).then((delivered) => !delivered && failed(), failed);
  }

  /** The webview was gone (hidden or reloading): send the latest again when it can take it. */
  private postFailed(): void {
    this.inFlight = undefined;
    this.updates.forget();
  }
}
