// What the panel posts next to bring its webview from what it holds to the current review: an
// append's new part alone when the webview holds everything before it; a review on its way in,
// slice by slice as its render writes them; otherwise the whole review, in slices when it is long
// (pageSlices.ts), and preceded for a long one by its first screen, which renders in a moment.
// No vscode here.

import { AppendLog, type AppendStep, type PanelChange } from './appendLog';
import { previewOf } from './preview';
import type { StreamedPage } from '../render/streamedPage';
import { escapeHtml } from './webviewHtml';
import { NO_REVIEW_REVISION, type HostToWebviewMessage } from './webviewMessages';

export interface PanelReview {
  readonly revision: number;
  readonly title?: string;
  readonly markdown: string;
  readonly cwd?: string;
  /** Still being rendered for the call that sent it: its page is shown as it is written. */
  readonly incoming?: boolean;
  /** An incoming review's page, slice by slice. */
  readonly page?: StreamedPage;
}

/** A page posted as it is written: its first slice now, the others as they arrive. */
export interface StreamedPosts {
  readonly first: HostToWebviewMessage;
  readonly rest: AsyncIterable<HostToWebviewMessage>;
}

export interface PanelRender {
  readonly html: string;
  /** Where in `html` each slice but the last ends, so the webview can add them one at a time. */
  readonly slices?: readonly number[];
}

export interface PanelRenderers {
  /** Safe HTML for the body (markdown-it with `html: false`, links already validated). */
  render(review: PanelReview): Promise<PanelRender>;
  /** Safe HTML for a part of the review (an append's new text, a long review's first screen), numbered as lines of the whole. */
  renderPart(review: PanelReview, part: { readonly markdown: string; readonly startLine: number }): Promise<string>;
  /** Where the review came from when that is not the window's own folders (a git worktree), for its header. */
  originOf?(review: PanelReview): string | undefined;
}

/** Below a long review's first screen until the whole of it arrives. */
const STILL_RENDERING_HTML = '<p class="redline-still-rendering">Rendering the rest of this review…</p>';

export class PanelUpdates {
  /** The revision the webview shows once what was posted arrives; undefined: unknown, send it whole. */
  private postedRevision: number | undefined;
  /** What was posted for `postedRevision` is only its first screen; the whole is still to come. */
  private postedPreview = false;
  /** Appends since `postedRevision`, so they can be sent on their own. */
  private appends = new AppendLog();

  constructor(private readonly renderers: PanelRenderers) {}

  /** Every change to the review, in order. */
  record(change: PanelChange): void {
    this.appends.record(change);
  }

  /** The webview does not (or will not, once what was posted arrives) show all of `review`. */
  isBehind(review: PanelReview | undefined): boolean {
    const posted = this.postedRevision === (review?.revision ?? NO_REVIEW_REVISION);
    // An incoming review's whole is not sent: the call renders it, and the panel gets it once staged.
    return !posted || (this.postedPreview && !review?.incoming);
  }

  /** The last message posted was a preview: its acknowledgement is not the review painted. */
  get awaitingWhole(): boolean {
    return this.postedPreview;
  }

  /** What goes next for `review` is an append to what the webview holds (or will, once posted). */
  appendsTo(review: PanelReview | undefined): boolean {
    return review !== undefined && this.appendSteps(review) !== undefined;
  }

  /**
   * The messages to post next for `review`, in order: one, or a long page's slices. Never
   * rejects: a render that fails becomes an error shown in the panel.
   */
  async next(review: PanelReview | undefined): Promise<HostToWebviewMessage[]> {
    if (!review) {
      return [{ type: 'empty' }];
    }
    const header = this.headerOf(review);
    const steps = this.appendSteps(review);
    if (steps) {
      const html = await this.renderSteps(review, steps).catch(renderErrorHtml);
      return [{ type: 'append', fromRevision: this.postedRevision!, ...header, html }];
    }
    const preview =
      !review.incoming && this.postedRevision !== review.revision ? previewOf(review.markdown) : undefined;
    if (preview !== undefined) {
      const html = await this.renderers.renderPart(review, { markdown: preview, startLine: 0 }).catch(renderErrorHtml);
      return [{ type: 'render', ...header, html: html + STILL_RENDERING_HTML, preview: true }];
    }
    try {
      const { html, slices = [] } = await this.renderers.render(review);
      return pageMessages(header, html, slices);
    } catch (error) {
      return [{ type: 'render', ...header, html: renderErrorHtml(error) }];
    }
  }

  /**
   * An incoming review's page as its render writes it: the first slice as the render (the page
   * that was there goes), then each slice, the last once the page is complete. Nothing is
   * rendered here, and nothing for any other review.
   */
  streamed(review: PanelReview | undefined): StreamedPosts | undefined {
    const page = review?.incoming ? review.page : undefined;
    const first = page?.slice(0);
    if (!review || !page || first === undefined) return undefined;
    const more = !page.complete || page.length > 1;
    const render: HostToWebviewMessage = {
      type: 'render',
      ...this.headerOf(review),
      html: first,
      ...(more ? { more: true } : {}),
    };
    return { first: render, rest: more ? sliceMessages(review.revision, page.from(1)) : noMessages() };
  }

  /** `message` was posted; `revision` is what it shows. */
  posted(message: HostToWebviewMessage, revision: number): void {
    this.postedRevision = revision;
    this.postedPreview = message.type === 'render' && message.preview === true;
    this.appends.forgetThrough(revision);
  }

  /** Another review is shown now: its revisions are not comparable with the last one's. */
  switchReview(): void {
    this.forget();
    this.appends = new AppendLog();
  }

  /** The webview lost what was posted (it reloaded, or the post failed): send it whole next. */
  forget(): void {
    this.postedRevision = undefined;
    this.postedPreview = false;
  }

  private headerOf(review: PanelReview): { revision: number; title?: string; origin?: string } {
    const origin = this.renderers.originOf?.(review);
    return { revision: review.revision, title: review.title, ...(origin !== undefined ? { origin } : {}) };
  }

  private appendSteps(review: PanelReview): readonly AppendStep[] | undefined {
    const from = this.postedRevision;
    const holdsFrom = from !== undefined && from !== NO_REVIEW_REVISION && !this.postedPreview;
    return holdsFrom ? this.appends.chain(from, review.revision) : undefined;
  }

  private async renderSteps(review: PanelReview, steps: readonly AppendStep[]): Promise<string> {
    const parts: string[] = [];
    for (const step of steps) parts.push(await this.renderers.renderPart(review, step));
    return parts.join('');
  }
}

/** A page as the webview receives it: whole, or its first slice and then the others in order. */
function pageMessages(
  header: { revision: number; title?: string; origin?: string },
  html: string,
  slices: readonly number[],
): HostToWebviewMessage[] {
  if (slices.length === 0) return [{ type: 'render', ...header, html }];
  const messages: HostToWebviewMessage[] = [{ type: 'render', ...header, html: html.slice(0, slices[0]), more: true }];
  slices.forEach((start, index) => {
    const last = index === slices.length - 1;
    messages.push({
      type: 'slice',
      revision: header.revision,
      html: html.slice(start, last ? undefined : slices[index + 1]),
      last,
    });
  });
  return messages;
}

async function* sliceMessages(
  revision: number,
  slices: AsyncIterable<{ readonly html: string; readonly last: boolean }>,
): AsyncGenerator<HostToWebviewMessage> {
  for await (const { html, last } of slices) yield { type: 'slice', revision, html, last };
}

async function* noMessages(): AsyncGenerator<HostToWebviewMessage> {}

/** What the panel shows in place of a review (or an appended part) that could not be rendered. */
function renderErrorHtml(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `<p class="redline-render-error">This review could not be rendered: ${escapeHtml(reason)}</p>`;
}
