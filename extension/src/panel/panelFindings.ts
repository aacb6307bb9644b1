// The panel's side of the conversation: the marks beside each finding, the finding to scroll to
// once the review is painted, and what the webview's finding buttons and message box ask for.

import type { FindingState } from '../../../shared/findingTerms';
import type { FindingMark, HostToWebviewMessage, WebviewToHostMessage } from './webviewMessages';

export interface PanelFindingDeps {
  /** How each finding stands now, for the marks and buttons beside them. */
  findingMarks(): readonly FindingMark[];
  setFindingState(id: string, state: FindingState): Promise<void>;
  /** Shows the finding's thread in the code. */
  revealFinding(id: string): Promise<void>;
  /** Shows a finding's suggestion as a diff, and applies it if the user agrees. */
  applySuggestion(id: string, index: number): Promise<void>;
  /** Records the box's message for the assistant; rejects with what went wrong. */
  sendMessage(text: string): Promise<void>;
  /** Where a link inside a finding of the current review opens now that its code may have moved (findingLinks.ts). */
  linkInFinding(findingId: string, target: string): string;
}

type FindingMessage = Extract<
  WebviewToHostMessage,
  { type: 'setFindingState' | 'revealFinding' | 'applySuggestion' | 'sendMessage' }
>;

export function isFindingMessage(message: WebviewToHostMessage): message is FindingMessage {
  return (
    message.type === 'setFindingState' ||
    message.type === 'revealFinding' ||
    message.type === 'applySuggestion' ||
    message.type === 'sendMessage'
  );
}

export class PanelFindings {
  /** A finding to scroll to once a review is painted. */
  private toShow: string | undefined;

  constructor(
    private readonly deps: PanelFindingDeps,
    private readonly post: (message: HostToWebviewMessage) => void,
    /** Runs a dep's action, keeping its rejection from going unhandled (deps show their own errors). */
    private readonly settle: (action: () => Promise<void>, what: string) => Promise<void>,
  ) {}

  handle(message: FindingMessage): void {
    switch (message.type) {
      case 'setFindingState':
        void this.settle(() => this.deps.setFindingState(message.id, message.state), 'change a finding');
        return;
      case 'revealFinding':
        void this.settle(() => this.deps.revealFinding(message.id), 'show a finding');
        return;
      case 'applySuggestion':
        void this.settle(() => this.deps.applySuggestion(message.id, message.index), 'apply a suggestion');
        return;
      case 'sendMessage':
        void this.sendToAssistant(message.text);
        return;
    }
  }

  /** Sends the marks (after a paint, or when a finding changed), then a finding waiting to be shown. */
  sendMarks(painted: boolean): void {
    this.post({ type: 'findings', marks: this.deps.findingMarks() });
    if (this.toShow !== undefined && painted) {
      this.post({ type: 'showFinding', id: this.toShow });
      this.toShow = undefined;
    }
  }

  /** Scrolls to a finding now, or after the first paint of a panel opened just now. */
  show(id: string, painted: boolean): void {
    if (painted) this.post({ type: 'showFinding', id });
    else this.toShow = id;
  }

  private async sendToAssistant(text: string): Promise<void> {
    try {
      await this.deps.sendMessage(text);
      this.post({ type: 'messageResult', sent: true });
    } catch (error) {
      this.post({ type: 'messageResult', sent: false, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
