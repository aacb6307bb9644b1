// Every click on a link in the panel becomes a message to the host, and nothing inside the webview
// ever navigates: the review's anchors are all `href="#"` (or worse, in hostile markdown), and the
// host decides what a `data-ref` or `data-external` opens, after its own checks.

import type { WebviewToHostMessage } from '../src/panel/webviewMessages';

const CLICKED_CLASS = 'redline-clicked';
const CLICKED_MS = 1200;

export function interceptLinkClicks(page: Document, post: (message: WebviewToHostMessage) => void): void {
  let highlighted: { readonly anchor: Element; readonly timer: ReturnType<typeof setTimeout> } | undefined;

  /** Briefly marks the clicked reference, so the user sees which one opened. */
  const highlight = (anchor: Element) => {
    if (highlighted) {
      clearTimeout(highlighted.timer);
      highlighted.anchor.classList.remove(CLICKED_CLASS);
    }
    anchor.classList.add(CLICKED_CLASS);
    highlighted = { anchor, timer: setTimeout(() => anchor.classList.remove(CLICKED_CLASS), CLICKED_MS) };
  };

  const onClick = (event: MouseEvent) => {
    const anchor = event.target instanceof Element ? event.target.closest('a') : null;
    if (!anchor) return;
    event.preventDefault();
    // A middle click (auxclick) is only kept from navigating.
    if (event.type !== 'click') return;
    const target = anchor.getAttribute('data-ref');
    if (target !== null) {
      highlight(anchor);
      // A link inside a finding follows the finding's code (the host knows where it moved).
      const findingId = anchor.closest<HTMLElement>('[data-finding]')?.dataset.finding;
      post({ type: 'openReference', target, ...(findingId !== undefined ? { findingId } : {}) });
      return;
    }
    const url = anchor.getAttribute('data-external');
    if (url !== null) post({ type: 'openExternal', url });
  };

  // Capture phase: seen before anything in the review body could act on the click.
  page.addEventListener('click', onClick, true);
  page.addEventListener('auxclick', onClick, true);
}
