// The review panel: one webview panel that shows the current review and turns clicks on its
// links into calls on its deps. The page is a static shell; each change is sent by postMessage,
// coalesced so that at most one render is in flight and only the latest review is ever sent.
// An append sends only its rendered new part, which the webview adds without repainting the rest.

import * as vscode from 'vscode';
import type { PanelChange } from './appendLog';
import { PanelUpdates, type PanelRenderers, type PanelReview } from './panelUpdates';
import { buildWebviewHtml, DEFAULT_TITLE } from './webviewHtml';
import { isFindingMessage, PanelFindings, type PanelFindingDeps } from './panelFindings';
import { isHistoryMessage, PanelHistory, type PanelHistoryDeps } from './panelHistory';
import {
  NO_REVIEW_REVISION,
  parseWebviewMessage,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from './webviewMessages';

export interface ReviewPanelDeps extends PanelRenderers, PanelFindingDeps, PanelHistoryDeps {
  /** The current review; `undefined` when nothing has been presented yet. */
  getReview(): PanelReview | undefined;
  /** Fires after every change (replace, append, update-section, clear). */
  readonly onDidChangeReview: vscode.Event<PanelChange>;
  /** Opens the raw `data-ref` of a clicked link; shows its own errors. */
  openReference(target: string, cwd: string | undefined): Promise<void>;
  /** Opens the `data-external` of a clicked http(s) link; validates it first. */
  openExternal(url: string): Promise<void>;
  /** Writes the markdown source of the review shown to the clipboard. */
  copyMarkdown(review: PanelReview | undefined): Promise<void>;
  /** Fires when a finding's state or staleness may have changed. */
  readonly onDidChangeFindings: vscode.Event<unknown>;
}

// Relative to the extension root (where package.json is). The stylesheet is served from where it
// is kept in the repo, because the build copies nothing into a top-level media/ folder.
const SCRIPT_DIR = ['dist'] as const;
const SCRIPT_FILE = 'webview.js';
const STYLE_DIR = ['extension', 'media'] as const;
const STYLE_FILE = 'review.css';

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableForms: false,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, ...SCRIPT_DIR),
      vscode.Uri.joinPath(extensionUri, ...STYLE_DIR),
    ],
  };
}

function panelTitle(review: PanelReview | undefined, earlier = false): string {
  const title = review?.title ? `Review: ${review.title}` : DEFAULT_TITLE;
  return earlier ? `${title} (earlier)` : title;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ReviewPanel implements vscode.Disposable {
  static readonly viewType = 'redline.review';

  private static _current: ReviewPanel | undefined;

  /** The open review panel, if any. */
  static get current(): ReviewPanel | undefined {
    return ReviewPanel._current;
  }

  /** Reveals the open panel, or opens one beside the active editor so links open next to it. */
  static createOrShow(
    extensionUri: vscode.Uri,
    deps: ReviewPanelDeps,
    options: { preserveFocus?: boolean } = {},
  ): ReviewPanel {
    const preserveFocus = options.preserveFocus ?? false;
    const existing = ReviewPanel._current;
    if (existing) {
      existing._panel.reveal(existing._panel.viewColumn, preserveFocus);
      return existing;
    }
    const viewColumn = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(
      ReviewPanel.viewType,
      panelTitle(deps.getReview()),
      { viewColumn, preserveFocus },
      {
        ...webviewOptions(extensionUri),
        // The page is cheap to rebuild from the host's state, so it is not kept alive while hidden.
        retainContextWhenHidden: false,
        enableFindWidget: true,
      },
    );
    return new ReviewPanel(panel, extensionUri, deps);
  }

  /** Takes over a panel restored by `registerWebviewPanelSerializer` after a restart. */
  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, deps: ReviewPanelDeps): ReviewPanel {
    const existing = ReviewPanel._current;
    if (existing) {
      // A panel was opened before the serializer ran; two panels would show the same review.
      panel.dispose();
      return existing;
    }
    panel.webview.options = webviewOptions(extensionUri);
    return new ReviewPanel(panel, extensionUri, deps);
  }

  private readonly _panel: vscode.WebviewPanel;
  private readonly _deps: ReviewPanelDeps;
  private readonly _disposables: vscode.Disposable[] = [];
  private readonly _onDidRender = new vscode.EventEmitter<number>();

  /** Fires with the revision when the webview reports it has painted it (0: the empty state). */
  readonly onDidRender: vscode.Event<number> = this._onDidRender.event;

  private _renderedRevision = NO_REVIEW_REVISION;
  private _disposed = false;
  /** The current webview document has posted `ready`, so posted messages reach a listener. */
  private _ready = false;
  private readonly _updates: PanelUpdates;
  /** A render is being prepared; its result is posted even if the review moved on meanwhile. */
  private _rendering = false;
  /** The revision of the render posted and not yet acknowledged. */
  private _inFlight: number | undefined;
  /** Identifies the latest post, so a late "not delivered" result cannot undo a newer one. */
  private _postSequence = 0;
  private _flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly _findings: PanelFindings;
  private readonly _history: PanelHistory;

  private constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, deps: ReviewPanelDeps) {
    this._panel = panel;
    this._deps = deps;
    this._updates = new PanelUpdates(deps);
    this._findings = new PanelFindings(deps, (message) => this._post(message), (action, what) => this._settle(action, what));
    this._history = new PanelHistory(deps, (message) => this._post(message), () => this._scheduleFlush(), () => deps.getReview());
    ReviewPanel._current = this;

    const webview = panel.webview;
    const review = deps.getReview();
    panel.title = panelTitle(review);
    webview.html = buildWebviewHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...SCRIPT_DIR, SCRIPT_FILE)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...STYLE_DIR, STYLE_FILE)).toString(),
      title: review?.title,
    });

    this._disposables.push(
      this._onDidRender,
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => this._onViewStateChanged()),
      webview.onDidReceiveMessage((message: unknown) => this._onMessage(message)),
      deps.onDidChangeReview((change) => {
        this._updates.record(change);
        // A new review from the assistant ends the read-only view of an earlier one.
        if (change.kind === 'replace') this._history.showCurrent();
        if (change.kind === 'replace' || change.kind === 'clear') void this._history.sendList();
        this._scheduleFlush();
      }),
      deps.onDidChangeFindings(() => this._sendMarks()),
    );
  }

  /** Scrolls the panel to a finding's block and points it out. */
  showFinding(id: string): void {
    this._panel.reveal(this._panel.viewColumn, false);
    const earlier = this._history.earlier !== undefined;
    this._history.showCurrent();
    this._findings.show(id, !earlier && this._renderedRevision !== NO_REVIEW_REVISION);
  }

  /** Shows an earlier review read-only in place of the current one. */
  openEarlier(revision: number): Promise<void> {
    this._panel.reveal(this._panel.viewColumn, false);
    return this._history.open(revision);
  }

  /** Lists how the shown review's findings stand against the review before it. */
  compareWithPrevious(): Promise<void> {
    this._panel.reveal(this._panel.viewColumn, false);
    return this._history.compare();
  }

  /** The review the panel shows: an earlier one opened from the history, or the current one. */
  private _shown(): PanelReview | undefined {
    return this._history.earlier ?? this._deps.getReview();
  }

  /** Shown in its tab group (not behind another tab). */
  get visible(): boolean {
    return this._panel.visible;
  }

  /** The editor column the panel is in, so references can be opened in another one. */
  get viewColumn(): vscode.ViewColumn | undefined {
    return this._disposed ? undefined : this._panel.viewColumn;
  }

  /** The revision the webview last acknowledged as painted (0: nothing, or the empty state). */
  get renderedRevision(): number {
    return this._renderedRevision;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    if (ReviewPanel._current === this) {
      ReviewPanel._current = undefined;
    }
    if (this._flushTimer !== undefined) {
      clearTimeout(this._flushTimer);
      this._flushTimer = undefined;
    }
    this._panel.dispose();
    while (this._disposables.length) {
      this._disposables.pop()?.dispose();
    }
  }

  private _onViewStateChanged(): void {
    if (this._panel.visible) {
      this._scheduleFlush();
    } else {
      // A hidden webview neither paints nor acknowledges, so an ack may never come for the
      // render in flight; when it is shown again it either acks late or reloads and says ready.
      this._inFlight = undefined;
    }
  }

  private _onMessage(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message || this._disposed) {
      return;
    }
    this._handle(message);
  }

  private _handle(message: WebviewToHostMessage): void {
    if (isFindingMessage(message)) {
      // An earlier review is read-only; a message to the assistant is not about it.
      if (!this._history.earlier || message.type === 'sendMessage') this._findings.handle(message);
      return;
    }
    if (isHistoryMessage(message)) {
      void this._settle(() => this._history.handle(message), 'show the history');
      return;
    }
    switch (message.type) {
      case 'ready':
        // A new document (first load, or reload after being hidden) has nothing on screen.
        this._ready = true;
        this._inFlight = undefined;
        this._updates.forget();
        this._scheduleFlush();
        void this._settle(() => this._history.sendList(), 'list earlier reviews');
        return;
      case 'rendered': {
        // A painted preview is not the review painted: that is announced when the whole arrives.
        const preview = message.revision === this._inFlight && this._updates.awaitingWhole;
        if (message.revision === this._inFlight) {
          this._inFlight = undefined;
          this._scheduleFlush();
        }
        if (!preview) {
          this._renderedRevision = message.revision;
          this._onDidRender.fire(message.revision);
          // The painted blocks are new: mark their findings.
          this._sendMarks();
        }
        return;
      }
      case 'openReference':
        void this._settle(
          () => this._deps.openReference(message.target, this._shown()?.cwd),
          'open a reference',
        );
        return;
      case 'openExternal':
        void this._settle(() => this._deps.openExternal(message.url), 'open a link');
        return;
      case 'copy':
        void this._copy();
        return;
      default: {
        const unexpected: never = message;
        return unexpected;
      }
    }
  }

  private _sendMarks(): void {
    if (!this._ready) return;
    // An earlier review is read-only: its findings get no marks and no buttons.
    if (this._history.earlier) this._post({ type: 'findings', marks: [] });
    else this._findings.sendMarks(this._renderedRevision !== NO_REVIEW_REVISION);
  }

  private async _copy(): Promise<void> {
    try {
      await this._deps.copyMarkdown(this._shown());
      this._post({ type: 'copied' });
    } catch (error) {
      this._post({ type: 'copyFailed', message: errorMessage(error) });
    }
  }

  /** Deps report their own errors to the user; this only keeps a rejection from going unhandled. */
  private async _settle(action: () => Promise<void>, what: string): Promise<void> {
    try {
      await action();
    } catch (error) {
      console.warn(`Redline: could not ${what}: ${errorMessage(error)}`);
    }
  }

  private _scheduleFlush(): void {
    // Deferred so a burst of synchronous changes costs one render, and so `render()` never
    // runs inside the store's own change notification.
    if (this._flushTimer === undefined && !this._disposed) {
      this._flushTimer = setTimeout(() => {
        this._flushTimer = undefined;
        this._flush();
      }, 0);
    }
  }

  private _flush(): void {
    if (this._disposed || !this._ready || !this._panel.visible || this._inFlight !== undefined || this._rendering) {
      return;
    }
    const review = this._shown();
    if (!this._updates.isBehind(review)) {
      return;
    }
    this._rendering = true;
    void this._updates.next(review).then((message) => {
      this._rendering = false;
      this._send(message, review);
    });
  }

  private _send(message: HostToWebviewMessage, review: PanelReview | undefined): void {
    if (this._disposed) {
      return;
    }
    const revision = message.type === 'empty' ? NO_REVIEW_REVISION : review?.revision ?? NO_REVIEW_REVISION;
    this._panel.title = panelTitle(review, review !== undefined && review === this._history.earlier);
    const sequence = ++this._postSequence;
    this._updates.posted(message, revision);
    this._inFlight = revision;
    // Changes that arrive meanwhile go out once the webview acknowledges this one.
    this._panel.webview.postMessage(message).then(
      (delivered) => {
        if (!delivered && sequence === this._postSequence) {
          this._postFailed();
        }
      },
      () => {
        if (sequence === this._postSequence) {
          this._postFailed();
        }
      },
    );
  }

  /** The webview was gone (hidden or reloading): send the latest again when it can take it. */
  private _postFailed(): void {
    this._inFlight = undefined;
    this._updates.forget();
  }

  private _post(message: HostToWebviewMessage): void {
    if (!this._disposed) {
      this._panel.webview.postMessage(message).then(undefined, () => undefined);
    }
  }
}
