// The page's half of keeping in front the editor Redline shows (editor/editorInFront.ts). Asked who
// brought the panel to the front, it answers "the user" if since Redline began to show an editor a
// pointer or a key went down in the page or the page gained the focus, and says whether it has the
// keyboard. Without either, the question stays open: VS Code makes the panel active at once for a
// click on its tab or Ctrl+1 but hands the page the keyboard a moment later, often after the
// question; when it comes, the page answers again. And when the editor is shown while the page
// still has the keyboard with no move of the user (a closing palette handed it back), the page
// says so at once.

import type { FocusCheckMessage, WebviewToHostMessage } from '../src/panel/webviewMessages';

type FocusMessage = Extract<WebviewToHostMessage, { type: 'focusAnswer' | 'keyboardKept' }>;

export function answerFocusQuestions(post: (message: FocusMessage) => void): void {
  let moved = true;
  /** A question answered "nobody, and the keyboard is elsewhere": the user's move may yet come. */
  let open: number | undefined;
  const move = () => {
    moved = true;
    if (open !== undefined) post({ type: 'focusAnswer', question: open, byUser: true, hasKeyboard: true });
    open = undefined;
  };
  // Not keyup: a key let go in the panel may have been pressed in the palette that ran the command.
  for (const kind of ['pointerdown', 'keydown'] as const) {
    document.addEventListener(kind, move, { capture: true, passive: true });
  }
  window.addEventListener('focus', move);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = event.data as Partial<FocusCheckMessage> | null;
    if (message?.type === 'editorShowing') {
      moved = false;
      open = undefined;
    }
    if (message?.type === 'editorShown' && !moved && document.hasFocus()) post({ type: 'keyboardKept' });
    if (message?.type === 'whoFocused' && typeof message.question === 'number') {
      const hasKeyboard = document.hasFocus();
      post({ type: 'focusAnswer', question: message.question, byUser: moved, hasKeyboard });
      open = moved || hasKeyboard ? undefined : message.question;
    }
  });
}
