// Wires the conversation around a review: findings from the renderer, anchors that follow the
// code, threads in the editor, entries in the Problems view, the commands behind their actions,
// and the panel's marks and message box. Every view draws from one list (ReviewFindings).

import * as vscode from 'vscode';
import type { FindingState } from '../../../shared/findingTerms';
import { codeColumnBeside } from '../editor/locationOpener';
import type { PanelFindingDeps as PanelFindingActions } from '../panel/panelFindings';
import { ReviewPanel, type ReviewPanelDeps } from '../panel/reviewPanel';
import type { ReviewRenderer } from '../render/reviewRenderer';
import { Conversation } from '../review/conversation';
import type { ReviewStore } from '../review/reviewStore';
import { followEditor, openDocumentLines } from './editorAnchors';
import { FindingAnchors } from './findingAnchors';
import { registerFindingCommands } from './findingCommands';
import { FindingDiagnostics } from './findingDiagnostics';
import { FindingFeedback } from './findingFeedback';
import { FindingThreads } from './findingThreads';
import { SuggestionApplier } from './suggestionApplier';
import { ReviewFindings } from './reviewFindings';

export interface FindingsFeatureDeps {
  readonly store: ReviewStore;
  readonly renderer: ReviewRenderer;
  /** Where the conversation is kept, beside the reviews. */
  readonly directory: string;
  readonly log: vscode.LogOutputChannel;
  /** Scrolls the panel to a finding, opening the panel if needed. */
  readonly showInPanel: (findingId: string) => void;
  /** Tells every connected assistant that there is new feedback. */
  readonly announce: (cursor: string) => void;
}

export type PanelFindingDeps = PanelFindingActions & Pick<ReviewPanelDeps, 'onDidChangeFindings'>;

export interface FindingsFeature extends vscode.Disposable {
  readonly findings: ReviewFindings;
  readonly conversation: Conversation;
  readonly threads: FindingThreads;
  readonly suggestions: SuggestionApplier;
  readonly panel: PanelFindingDeps;
}

export async function startFindings(deps: FindingsFeatureDeps): Promise<FindingsFeature> {
  const conversation = await Conversation.open(deps.directory, (message) => deps.log.warn(message));
  const anchors = new FindingAnchors(openDocumentLines);
  const findings = new ReviewFindings(
    deps.store,
    deps.renderer,
    conversation,
    anchors,
    (message, error) => deps.log.error(message, error),
    panelShown,
  );
  const codeColumn = () => codeColumnBeside(ReviewPanel.current?.viewColumn);
  const threads = new FindingThreads((id) => conversation.repliesTo(id), codeColumn);
  const suggestions = new SuggestionApplier((id) => findings.find(id), codeColumn);
  const diagnostics = new FindingDiagnostics();
  const feedback = new FindingFeedback(conversation, findings);
  const marksChanged = new vscode.EventEmitter<void>();

  const settle = async (action: Promise<unknown>) => void (await action);
  const panel: PanelFindingDeps = {
    findingMarks: () => findings.all.map(({ id, state, stale }) => ({ id, state, stale })),
    onDidChangeFindings: marksChanged.event,
    setFindingState: (id: string, state: FindingState) => settle(feedback.setState(id, state)),
    revealFinding: async (id: string) => {
      if (!(await threads.reveal(id))) void vscode.window.showWarningMessage('Redline: that finding is no longer in the review.');
    },
    // An applied suggestion is the finding dealt with: the assistant hears it as resolved.
    applySuggestion: async (id: string, index: number) => {
      if (await suggestions.apply(id, index)) await feedback.setState(id, 'resolved');
    },
    sendMessage: async (text: string) => {
      if (!(await feedback.message(text))) throw new Error('The message was not saved; try again.');
    },
  };

  const disposables: vscode.Disposable[] = [
    marksChanged,
    followEditor(anchors),
    findings.onDidChange((list) => {
      threads.update(list);
      diagnostics.update(list);
      marksChanged.fire();
    }),
    conversation.onDidAdd((item) => {
      deps.announce(item.id);
      if (item.kind === 'reply') threads.update(findings.all);
    }),
    ...registerFindingCommands(feedback, threads, deps.showInPanel),
  ];
  return {
    findings,
    conversation,
    threads,
    suggestions,
    panel,
    dispose: () => {
      for (const disposable of disposables) disposable.dispose();
      findings.dispose();
      anchors.dispose();
      threads.dispose();
      suggestions.dispose();
      diagnostics.dispose();
      conversation.dispose();
    },
  };
}

/** How long the findings' views wait for the panel to paint a review before they go ahead anyway. */
const PANEL_PAINT_WAIT_MS = 3000;

/** Resolves once the open, visible panel has painted `revision` (at once if there is no such panel). */
function panelShown(revision: number): Promise<void> {
  const panel = ReviewPanel.current;
  if (!panel || !panel.visible || panel.renderedRevision >= revision) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, PANEL_PAINT_WAIT_MS);
    const subscription = panel.onDidRender((painted) => painted >= revision && done());
  });
}
