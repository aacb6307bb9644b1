// The box at the foot of the panel for a free message to the assistant. The text stays in the box
// until the host says it is saved, so nothing typed is lost to a failed save.

import type { MessageResultMessage, WebviewToHostMessage } from '../src/panel/webviewMessages';
import { MAX_FEEDBACK_TEXT } from '../../shared/findingTerms';

export interface MessageBoxElements {
  readonly input: HTMLTextAreaElement;
  readonly send: HTMLButtonElement;
  /** Says whether the last message was sent. */
  readonly status: HTMLElement;
  readonly post: (message: WebviewToHostMessage) => void;
}

export class MessageBox {
  private readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly post: (message: WebviewToHostMessage) => void;

  constructor({ input, send, status, post }: MessageBoxElements) {
    this.input = input;
    this.send = send;
    this.status = status;
    this.post = post;
    input.maxLength = MAX_FEEDBACK_TEXT;
    send.addEventListener('click', () => this.submit());
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.submit();
      }
    });
    input.addEventListener('input', () => this.refresh());
    this.refresh();
  }

  /** The host's answer to the last send. */
  result(message: MessageResultMessage): void {
    this.input.disabled = false;
    if (message.sent) {
      this.input.value = '';
      this.status.textContent = 'Sent. The assistant reads it with get-review-feedback.';
    } else {
      this.status.textContent = message.error ?? 'Not sent; try again.';
    }
    this.refresh();
  }

  private submit(): void {
    const text = this.input.value;
    if (text.trim() === '' || this.input.disabled) return;
    this.input.disabled = true;
    this.status.textContent = 'Sending…';
    this.refresh();
    this.post({ type: 'sendMessage', text });
  }

  private refresh(): void {
    this.send.disabled = this.input.disabled || this.input.value.trim() === '';
  }
}
