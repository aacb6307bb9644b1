// The panel's side of the history: the picker's list of earlier reviews, an earlier review shown
// read-only in place of the current one, "Restore as current", and "Compare with previous".

import type { ReviewComparison } from '../../../shared/protocol';
import type { ReviewHistory } from '../review/reviewHistory';
import type { PanelReview } from './panelUpdates';
import type { EarlierReviewEntry, HostToWebviewMessage, WebviewToHostMessage } from './webviewMessages';

/** An earlier review as the panel shows it. */
export interface EarlierReview extends PanelReview {
  readonly updatedAt: string;
}

export interface PanelHistoryDeps {
  /** Earlier reviews, newest first. */
  listHistory(): Promise<readonly EarlierReviewEntry[]>;
  readEarlier(revision: number): Promise<EarlierReview | undefined>;
  /** Presents an earlier review again as the current one; false if it has left the history. */
  restoreEarlier(revision: number): Promise<boolean>;
  /** The review shown, compared with the one before it; undefined when there is none. */
  compareWithPrevious(review: PanelReview | undefined): Promise<ReviewComparison | undefined>;
  /**
   * Tells the user why a click did nothing (the review left the history). A notification, not a
   * log line: the user is waiting for an answer to the click.
   */
  showWarning(message: string): void;
}

/** What the panel needs from the history: the active review's. */
export function historyPanelDeps({
  history,
  showWarning,
}: {
  history: () => ReviewHistory;
  showWarning: (message: string) => void;
}): PanelHistoryDeps {
  return {
    listHistory: () => history().list(),
    readEarlier: (revision) => history().read(revision),
    restoreEarlier: async (revision) => (await history().restore(revision)) !== undefined,
    compareWithPrevious: (review) => history().compareWithPrevious(review),
    showWarning,
  };
}

type HistoryRequest = Extract<WebviewToHostMessage, { type: 'openEarlier' | 'restoreEarlier' | 'compare' }>;

export function isHistoryMessage(message: WebviewToHostMessage): message is HistoryRequest {
  return message.type === 'openEarlier' || message.type === 'restoreEarlier' || message.type === 'compare';
}

export interface PanelHistoryOptions {
  readonly deps: PanelHistoryDeps;
  readonly post: (message: HostToWebviewMessage) => void;
  /** The review to show has changed: bring the webview up to it. */
  readonly refresh: () => void;
  /** What the panel shows when no earlier review is open. */
  readonly current: () => PanelReview | undefined;
}

export class PanelHistory {
  private readonly deps: PanelHistoryDeps;
  private readonly post: (message: HostToWebviewMessage) => void;
  private readonly refresh: () => void;
  private readonly current: () => PanelReview | undefined;
  private shownEarlier: EarlierReview | undefined;
  /** Counts requests to show something, so a slow read cannot replace what the user chose after it. */
  private choice = 0;

  constructor({ deps, post, refresh, current }: PanelHistoryOptions) {
    this.deps = deps;
    this.post = post;
    this.refresh = refresh;
    this.current = current;
  }

  /** The earlier review shown read-only, if one is. */
  get earlier(): EarlierReview | undefined {
    return this.shownEarlier;
  }

  handle(message: HistoryRequest): Promise<void> {
    switch (message.type) {
      case 'openEarlier':
        return message.revision === undefined ? Promise.resolve(this.showCurrent()) : this.open(message.revision);
      case 'restoreEarlier':
        return this.restore(message.revision);
      case 'compare':
        return this.compare();
    }
  }

  /** Shows an earlier review read-only; the current one stays as it is. */
  async open(revision: number): Promise<void> {
    const choice = ++this.choice;
    const review = await this.deps.readEarlier(revision);
    if (choice !== this.choice) return;
    if (!review) {
      this.deps.showWarning(`Redline: revision ${revision} is no longer in the history.`);
      await this.sendList();
      return;
    }
    this.shownEarlier = review;
    this.refresh();
    await this.sendList();
  }

  /** Back to the current review (a new review from the assistant does this too). */
  showCurrent(): void {
    this.choice++;
    if (!this.shownEarlier) return;
    this.shownEarlier = undefined;
    this.refresh();
    void this.sendList();
  }

  /** Sends the picker's list and what is shown; after a ready, and when the history changed. */
  async sendList(): Promise<void> {
    const entries = (await this.deps.listHistory()).map(({ revision, title, updatedAt }) => ({
      revision,
      title,
      updatedAt,
    }));
    this.post({ type: 'history', entries, viewing: this.shownEarlier?.revision });
  }

  async compare(): Promise<void> {
    const comparison = await this.deps.compareWithPrevious(this.shownEarlier ?? this.current());
    this.post({ type: 'comparison', comparison: comparison ?? null });
  }

  private async restore(revision: number): Promise<void> {
    // The restored review arrives as a new current review, which ends the read-only view.
    if (!(await this.deps.restoreEarlier(revision)))
      this.deps.showWarning(`Redline: revision ${revision} is no longer in the history.`);
  }
}
