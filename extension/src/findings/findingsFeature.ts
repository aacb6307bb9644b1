// Wires the conversation around the reviews: findings from the renderer, anchors that follow the
// code, threads in the editor, entries in the Problems view, the commands behind their actions,
// and the panel's marks and message box. Each assistant's review has its own findings and anchors
// (attach); the editor's views show those of the review the panel shows (follow).

import * as vscode from 'vscode';
import type { FindingState } from '../../../shared/findingTerms';
import { Disposable, DisposableStore } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import { HAS_FINDINGS_CONTEXT, NavigationCommands } from '../constants';
import { codeColumnBeside } from '../editor/locationOpener';
import type { PanelFindingDeps as PanelFindingActions } from '../panel/panelFindings';
import { ReviewPanel, type ReviewPanelDeps } from '../panel/reviewPanel';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReview, AssistantReviews, FindingsAttachment } from '../review/assistantReviews';
import { followEditor, openDocumentLines } from './editorAnchors';
import { AnchorFile } from '../review/anchorFile';
import { FindingAnchors } from '../review/findingAnchors';
import { FindingsFile } from '../review/findingsFile';
import { registerFindingCommands } from './findingCommands';
import { FindingCursor, wrapNotice, type Direction } from './findingCursor';
import { followFindingLink } from './findingLinks';
import { FindingDiagnostics } from './findingDiagnostics';
import { FindingFeedback } from './findingFeedback';
import { FindingThreads } from './findingThreads';
import { SuggestionApplier } from './suggestionApplier';
import { ReviewFindings, type ShownFinding } from '../review/reviewFindings';
import type { EditorInFront } from '../editor/editorInFront';

export interface FindingsFeatureDeps {
  readonly renderer: ReviewRenderer;
  readonly log: Logger;
  /** Keeps a finding's editor in front of the panel's late focus change. */
  readonly inFront: EditorInFront;
  /** Scrolls the panel to a finding, opening the panel if needed. */
  readonly showInPanel: (findingId: string) => void;
  /** Points a finding out in the panel if it is open, leaving the focus where it is. */
  readonly markInPanel: (findingId: string) => void;
}

export type PanelFindingDeps = PanelFindingActions & Pick<ReviewPanelDeps, 'onDidChangeFindings'>;

export class FindingsFeature extends Disposable {
  readonly threads: FindingThreads;
  readonly suggestions: SuggestionApplier;
  readonly panel: PanelFindingDeps;
  private reviews: AssistantReviews | undefined;
  /** Where Next Finding and Previous Finding go from. */
  private readonly cursor = new FindingCursor(() => this.active?.findings.all ?? []);
  private readonly diagnostics = this.register(new FindingDiagnostics());
  private readonly marksChanged = this.register(new vscode.EventEmitter<void>());
  private hasFindings = false;

  constructor(private readonly deps: FindingsFeatureDeps) {
    super();
    const codeColumn = () => codeColumnBeside(ReviewPanel.current?.viewColumn);
    this.threads = this.register(
      new FindingThreads((id) => this.active?.conversation.repliesTo(id) ?? [], codeColumn, deps.inFront),
    );
    this.suggestions = this.register(new SuggestionApplier((id) => this.active?.findings.find(id), codeColumn));
    const feedback = () => this.feedback();
    const settle = async (action: Promise<unknown>) => void (await action);
    this.panel = {
      findingMarks: () => {
        const imported = this.active?.conversation.importedAnswers() ?? new Map<string, string>();
        return (this.active?.findings.all ?? []).map(({ id, state, stale }) => {
          const importedFrom = imported.get(id);
          return { id, state, stale, ...(importedFrom !== undefined ? { importedFrom } : {}) };
        });
      },
      onDidChangeFindings: this.marksChanged.event,
      setFindingState: (id: string, state: FindingState) => settle(feedback().setState(id, state)),
      revealFinding: (id: string) => this.reveal(id),
      // An applied suggestion is the finding dealt with: the assistant hears it as resolved.
      applySuggestion: async (id: string, index: number) => {
        const answer = feedback();
        if (await this.suggestions.apply(id, index)) await answer.setState(id, 'resolved');
      },
      sendMessage: async (text: string) => {
        if (!(await feedback().message(text))) throw new Error('The message was not saved; try again.');
      },
      linkInFinding: (id: string, target: string) => {
        const finding = this.active?.findings.find(id);
        if (!finding) return target;
        const followed = followFindingLink(target, finding);
        if (followed.codeChanged) {
          void vscode.window.showInformationMessage(
            `Redline: the code this finding points at has changed since the review; showing ${target} as the review wrote it.`,
          );
        }
        return followed.target;
      },
    };
    for (const command of registerFindingCommands(feedback, this.threads, deps.showInPanel)) this.register(command);
    this.register(vscode.commands.registerCommand(NavigationCommands.nextFinding, () => this.step('next')));
    this.register(vscode.commands.registerCommand(NavigationCommands.previousFinding, () => this.step('previous')));
  }

  /** Opens a finding's code where it is now, with its thread; Next Finding goes on from it. */
  private async reveal(id: string): Promise<void> {
    const finding = this.active?.findings.find(id);
    if (!finding) {
      void vscode.window.showWarningMessage('Redline: that finding is no longer in the review.');
      return;
    }
    this.cursor.moveTo(id);
    await this.threads.reveal(finding);
  }

  /** Next Finding / Previous Finding: the editor at the finding's lines with its thread open, and the finding pointed out in the panel. */
  private async step(direction: Direction): Promise<void> {
    const step = this.cursor.step(direction);
    const finding = step && this.active?.findings.find(step.id);
    if (!step || !finding) {
      void vscode.window.showInformationMessage('Redline: the review shown has no findings.');
      return;
    }
    this.deps.markInPanel(finding.id);
    await this.threads.reveal(finding);
    if (step.wrapped) void vscode.window.showInformationMessage(wrapNotice(direction, step.count));
  }

  /** One review's findings and anchors, made when the review is. */
  attach(review: AssistantReview): FindingsAttachment {
    const log = this.deps.log;
    const conversationFolder = review.folders?.conversation;
    const anchors = new FindingAnchors(openDocumentLines, new AnchorFile(conversationFolder, log.for('anchors')));
    const findings = new ReviewFindings({
      store: review.store,
      renderer: this.deps.renderer,
      conversation: review.conversation,
      anchors,
      log,
      // Only the review on screen waits for the panel; the others have nothing drawn.
      readyToPublish: (revision) => (this.active === review ? panelShown(revision) : Promise.resolve()),
      kept: new FindingsFile(conversationFolder, log),
    });
    const feeds = new DisposableStore();
    feeds.add(followEditor(anchors));
    feeds.add(findings.onDidChange((list) => this.active === review && this.publish(list)));
    feeds.add(
      review.conversation.onDidAdd(
        (item) => item.kind === 'reply' && this.active === review && this.threads.update(findings.all),
      ),
    );
    return { findings, feeds };
  }

  /** From now on the threads, the Problems view and the panel's marks show the active review's findings. */
  follow(reviews: AssistantReviews): void {
    this.reviews = reviews;
    this.register(reviews.onDidChangeActive((review) => this.publish(review.findings.all)));
    this.publish(reviews.active.findings.all);
  }

  private get active(): AssistantReview | undefined {
    return this.reviews?.active;
  }

  /** What the user says goes to the review they are looking at. */
  private feedback(): FindingFeedback {
    const review = this.active;
    if (!review) throw new Error('Redline is still starting; try again in a moment.');
    return new FindingFeedback(review.conversation, review.findings);
  }

  private publish(list: readonly ShownFinding[]): void {
    // Next Finding's keys are bound only while there is a finding to go to.
    if (list.length > 0 !== this.hasFindings) {
      this.hasFindings = list.length > 0;
      void vscode.commands.executeCommand('setContext', HAS_FINDINGS_CONTEXT, this.hasFindings);
    }
    this.threads.update(list);
    this.diagnostics.update(list);
    this.marksChanged.fire();
  }
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
