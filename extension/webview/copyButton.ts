// The toolbar's Copy button: asks the host to put the review's markdown on the clipboard, and says
// on the button for a moment whether it got there.

import type { WebviewToHostMessage } from '../src/panel/webviewMessages';

const LABEL = 'Copy';
const TOOLTIP = "Copy the review's markdown to the clipboard";
const COPIED_MS = 1500;
const FAILED_MS = 4000;

export class CopyButton {
  private feedbackTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly button: HTMLButtonElement,
    post: (message: WebviewToHostMessage) => void,
  ) {
    button.addEventListener('click', () => post({ type: 'copy' }));
  }

  /** Only a review shown can be copied. */
  set enabled(enabled: boolean) {
    this.button.disabled = !enabled;
  }

  copied(): void {
    this.showResult('Copied', 'The review\u2019s markdown is on the clipboard', COPIED_MS);
  }

  failed(reason: string): void {
    this.showResult('Copy failed', reason, FAILED_MS);
  }

  private showResult(label: string, tooltip: string, durationMs: number): void {
    this.button.textContent = label;
    this.button.title = tooltip;
    clearTimeout(this.feedbackTimer);
    this.feedbackTimer = setTimeout(() => {
      this.button.textContent = LABEL;
      this.button.title = TOOLTIP;
    }, durationMs);
  }
}
