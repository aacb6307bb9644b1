// The panel page's answers to "who brought the panel to the front?" (webview/userMoves.ts), against
// stand-ins for its document and window: the user, when a pointer or a key went down in it or it
// gained the focus since Redline last showed an editor; nobody, for a key let go in it (pressed in
// the palette that ran the command) or nothing at all.

const page = { document: new EventTarget(), window: new EventTarget() };
Object.assign(globalThis, page);

import { answerFocusQuestions } from '../../extension/webview/userMoves';

const answers: Array<{ question: number; byUser: boolean }> = [];
answerFocusQuestions(({ question, byUser }) => answers.push({ question, byUser }));

const fromHost = (data: unknown) => page.window.dispatchEvent(new MessageEvent('message', { data }));
/** Shows an editor, lets `happen` run in the page, then asks; the answer. */
function askAfter(happen: () => void): boolean {
  fromHost({ type: 'editorShown' });
  happen();
  fromHost({ type: 'whoFocused', question: answers.length + 1 });
  return answers[answers.length - 1].byUser;
}

it('says the user moved into the panel after a pointer or a key went down in it, or it gained the focus', () => {
  expect(askAfter(() => page.document.dispatchEvent(new Event('pointerdown')))).toBe(true);
  expect(askAfter(() => page.document.dispatchEvent(new Event('keydown')))).toBe(true);
  expect(askAfter(() => page.window.dispatchEvent(new Event('focus')))).toBe(true);
});

it('says nobody did when nothing happened in it since the editor was shown, or only a key was let go', () => {
  expect(askAfter(() => undefined)).toBe(false);
  expect(askAfter(() => page.document.dispatchEvent(new Event('keyup')))).toBe(false);
  // A move before the editor was shown is not one after it.
  page.document.dispatchEvent(new Event('pointerdown'));
  expect(askAfter(() => undefined)).toBe(false);
});

it('answers each question by its number, and ignores what is not a question', () => {
  fromHost({ type: 'whoFocused', question: 'seven' });
  fromHost(null);
  fromHost({ type: 'render' });
  const before = answers.length;
  fromHost({ type: 'whoFocused', question: 41 });
  expect(answers.slice(before)).toEqual([{ question: 41, byUser: false }]);
});
