// The panel's tabs: one per assistant that presented a review in this window, named after it.
// Shown only when there are two or more; a click asks the host to show that assistant's review.

import type { TabsMessage, WebviewToHostMessage } from '../src/panel/webviewMessages';

export class ReviewTabs {
  constructor(
    private readonly strip: HTMLElement,
    private readonly post: (message: WebviewToHostMessage) => void,
  ) {}

  update({ tabs }: TabsMessage): void {
    this.strip.hidden = tabs.length < 2;
    this.strip.replaceChildren(
      ...tabs.map((tab) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'redline-tab';
        button.setAttribute('role', 'tab');
        button.setAttribute('aria-selected', String(tab.active));
        button.dataset.key = tab.key;
        // The assistant's own name, as text: it comes from the MCP client.
        button.textContent = tab.label;
        button.title = `The review from ${tab.label}`;
        button.addEventListener('click', () => {
          if (!tab.active) this.post({ type: 'selectTab', key: tab.key });
        });
        return button;
      }),
    );
  }
}
