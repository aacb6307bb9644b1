// What the review panel is given: the active assistant's review, its changes, the tabs of every
// assistant's review, and the actions behind its buttons and links.

import * as vscode from 'vscode';
import { DisposableStore, type IDisposable } from '../../../shared/lifecycle';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReviews } from '../review/assistantReviews';
import type { ReviewChange } from '../review/reviewStore';
import { copyReviewToClipboard, openExternalLink, openReferenceForUser } from '../reviewActions';
import type { EditorInFront } from '../editor/editorInFront';
import type { LocationOpener } from '../editor/locationOpener';
import type { PanelFindingDeps } from './panelFindings';
import { historyPanelDeps } from './panelHistory';
import type { ReviewPanelDeps } from './reviewPanel';

/** The deps, and the emitters and subscriptions behind their events, which their dispose() releases. */
export type WindowPanelDeps = ReviewPanelDeps & IDisposable;

export interface PanelDepsSources {
  readonly reviews: AssistantReviews;
  readonly renderer: ReviewRenderer;
  readonly opener: LocationOpener;
  readonly inFront: EditorInFront;
  readonly findings: PanelFindingDeps & Pick<ReviewPanelDeps, 'onDidChangeFindings'>;
}

export function createPanelDeps({ reviews, renderer, opener, inFront, findings }: PanelDepsSources): WindowPanelDeps {
  const owned = new DisposableStore();
  const reviewChanged = owned.add(new vscode.EventEmitter<ReviewChange>());
  const switched = owned.add(new vscode.EventEmitter<void>());
  const tabsChanged = owned.add(new vscode.EventEmitter<void>());
  const incomingChanged = owned.add(new vscode.EventEmitter<void>());
  // The active review moves first (a new review's tab comes to the front), then its change arrives.
  owned.add(
    reviews.onDidChangeActive(() => {
      switched.fire();
      tabsChanged.fire();
    }),
  );
  owned.add(reviews.onDidChangeReview(({ review, change }) => review === reviews.active && reviewChanged.fire(change)));
  owned.add(reviews.onDidChangeList(() => tabsChanged.fire()));
  owned.add(reviews.onDidChangeIncoming((review) => review === reviews.active && incomingChanged.fire()));
  const deps: ReviewPanelDeps = {
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
    watchFocus: (panel) => inFront.attachPanel(panel),
    focusAnswered: (question, byUser, hasKeyboard) => inFront.answered(question, byUser, hasKeyboard),
    keyboardKept: () => inFront.keyboardKept(),
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
    ...historyPanelDeps({
      history: () => reviews.active.history,
      showWarning: (message) => void vscode.window.showWarningMessage(message),
    }),
  };
  // Set on the store that owns their emitters and subscriptions: disposing the deps releases them.
  return Object.assign(owned, deps);
}
