// What the review panel is given: the active assistant's review, its changes, the tabs of every
// assistant's review, and the actions behind its buttons and links.

import * as vscode from 'vscode';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReviews } from '../review/assistantReviews';
import type { ReviewChange } from '../review/reviewStore';
import { copyReviewToClipboard, openExternalLink, openReferenceForUser } from '../reviewActions';
import type { LocationOpener } from '../editor/locationOpener';
import type { PanelFindingDeps } from './panelFindings';
import { historyPanelDeps } from './panelHistory';
import type { ReviewPanelDeps } from './reviewPanel';

export type WindowPanelDeps = ReviewPanelDeps & vscode.Disposable;

export function createPanelDeps(
  reviews: AssistantReviews,
  renderer: ReviewRenderer,
  opener: LocationOpener,
  findings: PanelFindingDeps & Pick<ReviewPanelDeps, 'onDidChangeFindings'>,
): WindowPanelDeps {
  const reviewChanged = new vscode.EventEmitter<ReviewChange>();
  const switched = new vscode.EventEmitter<void>();
  const tabsChanged = new vscode.EventEmitter<void>();
  const incomingChanged = new vscode.EventEmitter<void>();
  const subscriptions = [
    // The active review moves first (a new review's tab comes to the front), then its change arrives.
    reviews.onDidChangeActive(() => {
      switched.fire();
      tabsChanged.fire();
    }),
    reviews.onDidChangeReview(({ review, change }) => review === reviews.active && reviewChanged.fire(change)),
    reviews.onDidChangeList(() => tabsChanged.fire()),
    reviews.onDidChangeIncoming((review) => review === reviews.active && incomingChanged.fire()),
  ];
  return {
    getReview: () => reviews.active.store.current,
    incoming: () => {
      const incoming = reviews.active.incoming.current;
      return incoming && { ...incoming, incoming: true };
    },
    onDidChangeIncoming: incomingChanged.event,
    onDidChangeReview: reviewChanged.event,
    onDidSwitchReview: switched.event,
    // A tab for each assistant with a review, and for the one shown even when it has none.
    tabs: () =>
      reviews.all
        .filter((review) => review.store.current || review === reviews.active)
        .map(({ key, label }) => ({ key, label, active: key === reviews.active.key })),
    selectTab: (key) => void reviews.select(key),
    onDidChangeTabs: tabsChanged.event,
    render: (review) => renderer.render(review),
    renderPart: async (review, part) => {
      // A repeated text in the part is numbered after the findings above it, as the whole review numbers it.
      const takenFindingIds = await renderer.findingIdsAbove(review, part.startLine, { render: false });
      return (await renderer.renderFragment(part.markdown, review.cwd, { lineOffset: part.startLine, takenFindingIds }))
        .html;
    },
    originOf: (review) => renderer.worktreeOf(review.cwd),
    openReference: (target, cwd) => openReferenceForUser(opener, target, cwd),
    openExternal: openExternalLink,
    copyMarkdown: async (review) => void (await copyReviewToClipboard(review)),
    ...findings,
    ...historyPanelDeps(
      () => reviews.active.history,
      (message) => void vscode.window.showWarningMessage(message),
    ),
    dispose: () => {
      for (const subscription of subscriptions) subscription.dispose();
      reviewChanged.dispose();
      switched.dispose();
      tabsChanged.dispose();
      incomingChanged.dispose();
    },
  };
}
