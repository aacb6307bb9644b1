// What the user can say about a review, from wherever they say it (a comment thread, a quick fix,
// the panel): each becomes a feedback item, on disk before the assistant can read it.

import * as vscode from 'vscode';
import { MAX_FEEDBACK_TEXT, type FeedbackItem, type FindingState } from '../../../shared/protocol';
import type { Conversation, NewFeedback } from '../review/conversation';
import type { ReviewFindings } from '../review/reviewFindings';

/** What "Ask the assistant to fix" says: a message tied to the finding. */
export const FIX_REQUEST_TEXT = 'Please fix this finding.';

export class FindingFeedback {
  constructor(
    private readonly conversation: Conversation,
    private readonly findings: ReviewFindings,
  ) {}

  reply(findingId: string, text: string): Promise<FeedbackItem | undefined> {
    const trimmed = text.trim();
    if (trimmed === '') return Promise.resolve(undefined);
    return this.record({ kind: 'reply', findingId, text: trimmed, reference: this.referenceOf(findingId) });
  }

  setState(findingId: string, state: FindingState): Promise<FeedbackItem | undefined> {
    if (this.conversation.stateOf(findingId) === state) return Promise.resolve(undefined);
    return this.record({ kind: 'state', findingId, state, reference: this.referenceOf(findingId) });
  }

  askToFix(findingId: string): Promise<FeedbackItem | undefined> {
    return this.record({ kind: 'message', findingId, text: FIX_REQUEST_TEXT, reference: this.referenceOf(findingId) });
  }

  /** A free message to the assistant, from the panel's box. */
  message(text: string): Promise<FeedbackItem | undefined> {
    const trimmed = text.trim();
    if (trimmed === '') return Promise.resolve(undefined);
    return this.record({ kind: 'message', text: trimmed.slice(0, MAX_FEEDBACK_TEXT) });
  }

  /** Asks for a reply in an input box (from the Problems view, which has no reply field). */
  async promptReply(findingId: string): Promise<void> {
    const finding = this.findings.find(findingId);
    const text = await vscode.window.showInputBox({
      title: finding ? `Reply to: ${finding.title}` : 'Reply to the finding',
      prompt: 'The assistant reads it with get-review-feedback.',
      validateInput: (value) =>
        value.length > MAX_FEEDBACK_TEXT ? `At most ${MAX_FEEDBACK_TEXT} characters.` : undefined,
    });
    if (text !== undefined) await this.reply(findingId, text);
  }

  private referenceOf(findingId: string): string | undefined {
    return this.findings.find(findingId)?.reference;
  }

  /** Records the item; a failed save is shown to the user, who may try again (nothing was lost on screen). */
  private async record(feedback: NewFeedback): Promise<FeedbackItem | undefined> {
    try {
      return await this.conversation.add({ ...feedback, source: 'window' });
    } catch (error) {
      void vscode.window.showErrorMessage((error as Error)?.message ?? String(error));
      return undefined;
    }
  }
}
