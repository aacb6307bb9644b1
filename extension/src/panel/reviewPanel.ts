// The review panel: one webview panel that shows a review (the active assistant's, or an earlier
// one read-only) and turns what its webview asks into calls on its deps. The page is a static
// shell (panelWebview.ts); reviewDelivery.ts sends it each change by postMessage, and the tabs,
// findings (panelFindings.ts) and history (panelHistory.ts) get messages of their own.

import * as vscode from 'vscode';
import { Disposable, toDisposable, type IDisposable } from '../../../shared/lifecycle';
import type { PanelFocus } from '../editor/editorInFront';
import { errorMessage, type Logger } from '../../../shared/logger';
import type { PanelChange } from './appendLog';
import type { PanelRenderers, PanelReview } from './panelUpdates';
import { ReviewDelivery } from './reviewDelivery';
import { loadShell, openPanelWebview, PANEL_VIEW_TYPE, panelTitle, webviewOptions } from './panelWebview';
import { isFindingMessage, PanelFindings, type PanelFindingDeps } from './panelFindings';
import { isHistoryMessage, PanelHistory, type PanelHistoryDeps } from './panelHistory';
import { parseWebviewMessage } from './webviewMessageSchemas';
import {
  NO_REVIEW_REVISION,
  type HostToWebviewMessage,
  type ReviewTab,
  type WebviewToHostMessage,
} from './webviewMessages';

export interface ReviewPanelDeps extends PanelRenderers, PanelFindingDeps, PanelHistoryDeps {
  /** The current review; `undefined` when nothing has been presented yet. */
  getReview(): PanelReview | undefined;
  /** A large review on its way in, shown in place of the current one until it is staged. */
  incoming(): PanelReview | undefined;
  readonly onDidChangeIncoming: vscode.Event<void>;
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
  /** Fires when another assistant's review is to be shown: `getReview` now returns that one. */
  readonly onDidSwitchReview: vscode.Event<void>;
  /** One tab per assistant's review. */
  tabs(): readonly ReviewTab[];
  selectTab(key: string): void;
  /** Lets the editor Redline shows ask the panel who brought it to the front (editor/editorInFront.ts); returns the undo. */
  watchFocus(panel: PanelFocus): IDisposable;
  /** The page's answer to such a question. */
  focusAnswered(question: number, byUser: boolean, hasKeyboard: boolean): void;
  /** The page still had the keyboard when the editor was shown. */
  keyboardKept(): void;
  readonly onDidChangeTabs: vscode.Event<void>;
}

/** What a panel is made with, whether opened or revived after a restart. */
export interface ReviewPanelSetup {
  readonly extensionUri: vscode.Uri;
  readonly deps: ReviewPanelDeps;
  readonly log: Logger;
}

export class ReviewPanel extends Disposable {
  static readonly viewType = PANEL_VIEW_TYPE;

  private static _current: ReviewPanel | undefined;

  /** The open review panel, if any. */
  static get current(): ReviewPanel | undefined {
    return ReviewPanel._current;
  }

  /** Reveals the open panel, or opens one beside the active editor so links open next to it. */
  static createOrShow(setup: ReviewPanelSetup, { preserveFocus = false } = {}): ReviewPanel {
    const existing = ReviewPanel._current;
    if (existing) {
      existing._panel.reveal(existing._panel.viewColumn, preserveFocus);
      return existing;
    }
    const panel = openPanelWebview(setup.extensionUri, { review: setup.deps.getReview(), preserveFocus });
    return new ReviewPanel(panel, setup);
  }

  /** Takes over a panel restored by `registerWebviewPanelSerializer` after a restart. */
  static revive(panel: vscode.WebviewPanel, setup: ReviewPanelSetup): ReviewPanel {
    const existing = ReviewPanel._current;
    if (existing) {
      // A panel was opened before the serializer ran; two panels would show the same review.
      panel.dispose();
      return existing;
    }
    panel.webview.options = webviewOptions(setup.extensionUri);
    return new ReviewPanel(panel, setup);
  }

  private readonly _deps: ReviewPanelDeps;
  private readonly _log: Logger;
  private readonly _onDidRender = this.register(new vscode.EventEmitter<number>());

  /** Fires with the revision when the webview reports it has painted it (0: the empty state). */
  readonly onDidRender: vscode.Event<number> = this._onDidRender.event;

  private _renderedRevision = NO_REVIEW_REVISION;
  private readonly _delivery: ReviewDelivery;
  private readonly _findings: PanelFindings;
  private readonly _history: PanelHistory;

  private constructor(
    private readonly _panel: vscode.WebviewPanel,
    { extensionUri, deps, log }: ReviewPanelSetup,
  ) {
    super();
    this._deps = deps;
    this._log = log;
    // Released after its listeners, so that its close event does not call back into a release.
    this.register(_panel);
    this._delivery = new ReviewDelivery(deps, {
      post: (message) => this._panel.webview.postMessage(message),
      get visible() {
        return _panel.visible;
      },
      shown: () => this._shown(),
      sending: (_message, review) => {
        this._panel.title = panelTitle(review, review !== undefined && review === this._history.earlier);
      },
    });
    this._findings = new PanelFindings(
      deps,
      (message) => this._post(message),
      (action, what) => this._settle(action, what),
    );
    this._history = new PanelHistory({
      deps,
      post: (message) => this._post(message),
      refresh: () => this._delivery.schedule(),
      current: () => deps.getReview(),
    });
    loadShell(_panel, extensionUri, deps.getReview());

    for (const listener of [
      // Closed by the user: nobody else is there to wait for the release, so a failure is logged.
      _panel.onDidDispose(() => this.dispose().catch((error) => log.warn('could not close the panel', { error }))),
      _panel.onDidChangeViewState(() => this._delivery.visibilityChanged()),
      _panel.webview.onDidReceiveMessage((message: unknown) => this._onMessage(message)),
      deps.onDidChangeReview((change) => {
        // A new review from the assistant ends the read-only view of an earlier one.
        if (change.kind === 'replace') this._history.showCurrent();
        if (change.kind === 'replace' || change.kind === 'clear') void this._history.sendList();
        this._delivery.record(change);
      }),
      deps.onDidChangeIncoming(() => this._delivery.schedule()),
      deps.onDidChangeFindings(() => this._sendMarks()),
      deps.onDidSwitchReview(() => this._switchReview()),
      deps.onDidChangeTabs(() => this._sendTabs()),
    ])
      this.register(listener);
    this.register(this._delivery);
    const becameActive = this.register(new vscode.EventEmitter<void>());
    this.register(_panel.onDidChangeViewState(() => _panel.active && becameActive.fire()));
    this.register(
      deps.watchFocus({
        get active() {
          return _panel.active;
        },
        onDidBecomeActive: becameActive.event,
        post: (message) => void _panel.webview.postMessage(message),
      }),
    );
    ReviewPanel._current = this;
    // Released first: a panel being closed is no longer the one to show.
    this.register(
      toDisposable(() => {
        if (ReviewPanel._current === this) ReviewPanel._current = undefined;
      }),
    );
  }

  /** Scrolls the panel to a finding's block and points it out. */
  showFinding(id: string, { preserveFocus = false } = {}): void {
    this._panel.reveal(this._panel.viewColumn, preserveFocus);
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

  /** A link inside a finding of the current review opens where the finding's code is now; in an earlier review, as written. */
  private _followFinding({ target, findingId }: { target: string; findingId?: string }): string {
    return findingId !== undefined && !this._history.earlier ? this._deps.linkInFinding(findingId, target) : target;
  }

  /** The review the panel shows: an earlier one opened from the history, one on its way in, or the current one. */
  private _shown(): PanelReview | undefined {
    return this._history.earlier ?? this._deps.incoming() ?? this._deps.getReview();
  }

  /** Shown in its tab group (not behind another tab). */
  get visible(): boolean {
    return this._panel.visible;
  }

  /** The editor column the panel is in, so references can be opened in another one. */
  get viewColumn(): vscode.ViewColumn | undefined {
    return this.isDisposed ? undefined : this._panel.viewColumn;
  }

  /** The revision the webview last acknowledged as painted (0: nothing, or the empty state). */
  get renderedRevision(): number {
    return this._renderedRevision;
  }

  private _onMessage(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message || this.isDisposed) return;
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
        this._delivery.documentReady();
        this._sendTabs();
        void this._settle(() => this._history.sendList(), 'list earlier reviews');
        return;
      case 'rendered':
        // A painted preview is not the review painted: that is announced when the whole arrives.
        if (this._delivery.rendered(message.revision)) {
          this._renderedRevision = message.revision;
          this._onDidRender.fire(message.revision);
          // The painted blocks are new: mark their findings.
          this._sendMarks();
        }
        return;
      case 'sliceAdded':
        this._delivery.sliceAdded(message.revision);
        return;
      case 'openReference':
        void this._settle(
          () => this._deps.openReference(this._followFinding(message), this._shown()?.cwd),
          'open a reference',
        );
        return;
      case 'openExternal':
        void this._settle(() => this._deps.openExternal(message.url), 'open a link');
        return;
      case 'copy':
        void this._copy();
        return;
      case 'selectTab':
        this._deps.selectTab(message.key);
        return;
      case 'focusAnswer':
        this._deps.focusAnswered(message.question, message.byUser, message.hasKeyboard);
        return;
      case 'keyboardKept':
        this._deps.keyboardKept();
        return;
      default: {
        const unexpected: never = message;
        return unexpected;
      }
    }
  }

  /** Another assistant's review: everything the webview holds is of the one before. */
  private _switchReview(): void {
    this._history.showCurrent();
    this._delivery.switchReview();
    void this._settle(() => this._history.sendList(), 'list earlier reviews');
  }

  private _sendTabs(): void {
    if (this._delivery.isReady) this._post({ type: 'tabs', tabs: this._deps.tabs() });
  }

  private _sendMarks(): void {
    if (!this._delivery.isReady) return;
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
      this._log.warn(`could not ${what}`, { error });
    }
  }

  private _post(message: HostToWebviewMessage): void {
    if (!this.isDisposed) this._panel.webview.postMessage(message).then(undefined, () => undefined);
  }
}
