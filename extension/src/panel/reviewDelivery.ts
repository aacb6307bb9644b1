// Bringing the webview up to the review the panel shows: at most one render in flight, coalesced so
// that only the latest review is ever sent, and sent again whole when the webview lost what it had
// (a reload, a failed post) or another review is shown. A long page goes in slices, one post per
// task, so that neither this thread nor the webview's is held by it; a new review does not wait
// for the slices of the one it replaces. No vscode here: the panel hands in its post.

import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { yieldThread } from '../../../shared/threadYield';
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

/**
 * HTML of a page posted and not yet added by the webview, past which its next slice waits: each
 * slice queues in the pipe to the webview (in a remote window, a socket) ahead of whatever is
 * posted after it, such as the next review.
 */
export const MAX_HTML_AHEAD = 2 * 1024 * 1024;

export class ReviewDelivery extends Disposable {
  private readonly updates: PanelUpdates;
  /** The current webview document has posted `ready`, so posted messages reach a listener. */
  private ready = false;
  /** A render is being prepared; its result is posted even if the review moved on meanwhile. */
  private rendering = false;
  /** The revision of the render posted and not yet acknowledged. */
  private inFlight: number | undefined;
  /** The render in flight is a page in slices, which a new review may cut short. */
  private inFlightSliced = false;
  /** Identifies the latest post, so a late "not delivered" result cannot undo a newer one. */
  private postSequence = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** The page being posted: HTML posted and slices the webview said it added; `wake` lets the next slice go. */
  private flow = { sequence: 0, posted: [] as number[], added: 0, wake: undefined as (() => void) | undefined };

  constructor(
    renderers: PanelRenderers,
    private readonly target: DeliveryTarget,
  ) {
    super();
    this.updates = new PanelUpdates(renderers);
    this.register(
      toDisposable(() => {
        this.wakeFlow();
        clearTimeout(this.flushTimer);
        this.flushTimer = undefined;
      }),
    );
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
    this.stopPosting();
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
      this.inFlightSliced = false;
      this.schedule();
    }
    return !preview;
  }

  /** The webview added a slice of `revision`'s page (its first counts). */
  sliceAdded(revision: number): void {
    if (revision !== this.inFlight) return;
    this.flow.added++;
    this.wakeFlow();
  }

  /** A hidden webview neither paints nor acknowledges: when shown again it acks late or says ready. */
  visibilityChanged(): void {
    if (this.target.visible) {
      this.schedule();
      return;
    }
    // A page cut short while hidden is sent whole again, not left waiting for its slices.
    if (this.inFlightSliced) this.updates.forget();
    this.stopPosting();
  }

  /** Another review is shown: its revisions are not comparable with what the webview holds. */
  switchReview(): void {
    this.updates.switchReview();
    this.stopPosting();
    this.schedule();
  }

  /** Deferred, so a burst of synchronous changes costs one render, never run inside a change notification. */
  schedule(): void {
    if (this.flushTimer === undefined && !this.isDisposed) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        this.flush();
      }, 0);
    }
  }

  private flush(): void {
    if (this.isDisposed || !this.ready || !this.target.visible || this.rendering) return;
    const review = this.target.shown();
    if (!this.updates.isBehind(review)) return;
    if (this.inFlight !== undefined && !this.replacesSlicedPage(review)) return;
    // A review on its way in is posted as its render writes it: nothing to render here.
    const streamed = this.updates.streamed(review);
    if (streamed) {
      if (this.inFlight !== undefined) this.stopPosting();
      this.send(streamed.first, streamed.rest, review);
      return;
    }
    this.rendering = true;
    void this.updates.next(review).then(([first, ...rest]) => {
      this.rendering = false;
      // The page in flight was replaced while this one rendered: its remaining slices stay unsent.
      if (this.inFlight !== undefined && this.inFlightSliced) this.stopPosting();
      if (this.inFlight === undefined) this.send(first, rest, review);
      else this.schedule();
    });
  }

  /**
   * Changes wait for the render in flight to be acknowledged, except that a page still arriving
   * in slices gives way to another review: its slices would only delay the review that replaces it.
   * An append to it waits, as it follows the page's last slice.
   */
  private replacesSlicedPage(review: PanelReview | undefined): boolean {
    return (
      this.inFlightSliced &&
      (review?.revision ?? NO_REVIEW_REVISION) !== this.inFlight &&
      !this.updates.appendsTo(review)
    );
  }

  /** Posts `first`, then `rest` (a page's other slices, which may still be arriving). */
  private send(
    first: HostToWebviewMessage,
    rest: readonly HostToWebviewMessage[] | AsyncIterable<HostToWebviewMessage>,
    review: PanelReview | undefined,
  ): void {
    if (this.isDisposed) return;
    const revision = first.type === 'empty' ? NO_REVIEW_REVISION : (review?.revision ?? NO_REVIEW_REVISION);
    this.target.sending(first, review);
    const sequence = ++this.postSequence;
    this.updates.posted(first, revision);
    this.inFlight = revision;
    this.inFlightSliced = !Array.isArray(rest) || rest.length > 0;
    // Changes that arrive meanwhile go out once the webview acknowledges this one.
    void this.postInOrder(first, rest, sequence);
  }

  /** Posts one message per task, and stops when a newer post took over or one was not delivered. */
  private async postInOrder(
    first: HostToWebviewMessage,
    rest: Iterable<HostToWebviewMessage> | AsyncIterable<HostToWebviewMessage>,
    sequence: number,
  ): Promise<void> {
    this.flow = { sequence, posted: [], added: 0, wake: undefined };
    if (!(await this.postOne(first, sequence))) return;
    for await (const message of rest) {
      // Between two slices, whatever else waits for this thread (an assistant's call, a keystroke) goes first.
      await yieldThread();
      await this.roomFor(message, sequence);
      if (!(await this.postOne(message, sequence))) return;
    }
  }

  /** Resolves once the webview has taken enough of the page for `message`, or the page is no longer posted. */
  private async roomFor(message: HostToWebviewMessage, sequence: number): Promise<void> {
    const size = 'html' in message ? message.html.length : 0;
    const ahead = () => this.flow.posted.slice(this.flow.added).reduce((sum, html) => sum + html, 0);
    while (
      sequence === this.postSequence &&
      !this.isDisposed &&
      this.flow.posted.length > this.flow.added &&
      ahead() + size > MAX_HTML_AHEAD
    ) {
      await new Promise<void>((resolve) => (this.flow.wake = resolve));
    }
  }

  private wakeFlow(): void {
    const wake = this.flow.wake;
    this.flow.wake = undefined;
    wake?.();
  }

  /** Posts `message` unless a newer post took over; false when it was not posted. */
  private async postOne(message: HostToWebviewMessage, sequence: number): Promise<boolean> {
    if (sequence !== this.postSequence || this.isDisposed) return false;
    if (message.type === 'render' || message.type === 'slice') this.flow.posted.push(message.html.length);
    const delivered = await Promise.resolve(this.target.post(message)).catch(() => false);
    if (!delivered && sequence === this.postSequence) this.postFailed();
    return delivered;
  }

  /** Nothing more of what is in flight is posted, nor waited for. */
  private stopPosting(): void {
    this.postSequence++;
    this.wakeFlow();
    this.inFlight = undefined;
    this.inFlightSliced = false;
  }

  /** The webview was gone (hidden or reloading): send the latest again when it can take it. */
  private postFailed(): void {
    this.stopPosting();
    this.updates.forget();
  }
}
