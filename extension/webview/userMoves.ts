// Answers the host's question of who brought the panel to the front (editorInFront.ts): the user,
// if since Redline last showed an editor a pointer or a key went down in the panel or the panel
// gained the focus (a click, Ctrl+1, a focus command: VS Code gives the page the focus before it
// tells the host). A focus the panel kept from before (a closing palette handed it back), or one
// VS Code only reports (its late poll of an old focus, the keyboard still in the editor), shows
// none of these: the host then gives the front back to the editor.

import type { FocusCheckMessage, WebviewToHostMessage } from '../src/panel/webviewMessages';

type FocusAnswer = Extract<WebviewToHostMessage, { type: 'focusAnswer' }>;

export function answerFocusQuestions(post: (message: FocusAnswer) => void): void {
  let moved = true;
  const move = () => void (moved = true);
  // Not keyup: a key let go in the panel may have been pressed in the palette that ran the command.
  for (const kind of ['pointerdown', 'keydown'] as const) {
    document.addEventListener(kind, move, { capture: true, passive: true });
  }
  window.addEventListener('focus', move);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = event.data as Partial<FocusCheckMessage> | null;
    if (message?.type === 'editorShown') moved = false;
    if (message?.type === 'whoFocused' && typeof message.question === 'number')
      post({ type: 'focusAnswer', question: message.question, byUser: moved });
  });
}
