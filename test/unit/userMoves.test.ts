// What the panel's page tells the host about the user's moves (webview/userMoves.ts), against
// stand-ins for its document and window: asked, whether a pointer or a key went down in it or it
// gained the focus since Redline last began to show an editor, and whether it has the keyboard; "the
// user" again for a question it left open, once the focus comes; and, unasked, that it kept the
// keyboard as the editor was shown.

const page = { document: new EventTarget(), window: new EventTarget() };
let pageHasFocus = false;
Object.assign(globalThis, page);
Object.assign(page.document, { hasFocus: () => pageHasFocus });

import { answerFocusQuestions } from '../../extension/webview/userMoves';

type Told = { type: 'focusAnswer'; question: number; byUser: boolean; hasKeyboard: boolean } | { type: 'keyboardKept' };
const told: Told[] = [];
answerFocusQuestions((message) => told.push(message));

const fromHost = (data: unknown) => page.window.dispatchEvent(new MessageEvent('message', { data }));
/** Redline shows an editor: first that it is about to, then that it has. */
const editorShown = () => {
  fromHost({ type: 'editorShowing' });
  fromHost({ type: 'editorShown' });
};
const answers = () => told.filter((message) => message.type === 'focusAnswer');
/** Shows an editor, lets `happen` run in the page, then asks; the answer. */
function askAfter(happen: () => void): boolean {
  editorShown();
  happen();
  fromHost({ type: 'whoFocused', question: told.length + 1 });
  const last = answers().pop();
  if (!last) throw new Error('no answer');
  return last.byUser;
}
/** What the page says while `happen` runs. */
function toldDuring(happen: () => void): Told[] {
  const before = told.length;
  happen();
  return told.slice(before);
}

beforeEach(() => {
  pageHasFocus = false;
});

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

it('says whether it has the keyboard', () => {
  editorShown();
  pageHasFocus = true;
  expect(toldDuring(() => fromHost({ type: 'whoFocused', question: 30 }))).toEqual([
    { type: 'focusAnswer', question: 30, byUser: false, hasKeyboard: true },
  ]);
});

it("answers an open question again, once, when the focus comes after it (a click on the panel's tab)", () => {
  editorShown();
  fromHost({ type: 'whoFocused', question: 50 });
  fromHost({ type: 'whoFocused', question: 51 });
  expect(
    toldDuring(() => {
      page.window.dispatchEvent(new Event('focus'));
      page.document.dispatchEvent(new Event('pointerdown'));
    }),
  ).toEqual([{ type: 'focusAnswer', question: 51, byUser: true, hasKeyboard: true }]);
});

it('leaves no question open once it answered with the keyboard, or the next editor was shown', () => {
  editorShown();
  pageHasFocus = true;
  fromHost({ type: 'whoFocused', question: 60 });
  expect(toldDuring(() => page.window.dispatchEvent(new Event('focus')))).toEqual([]);
  pageHasFocus = false;
  editorShown();
  fromHost({ type: 'whoFocused', question: 61 });
  editorShown();
  expect(toldDuring(() => page.window.dispatchEvent(new Event('focus')))).toEqual([]);
});

it('tells the host it kept the keyboard as the editor was shown', () => {
  pageHasFocus = true;
  expect(toldDuring(() => editorShown())).toEqual([{ type: 'keyboardKept' }]);
  pageHasFocus = false;
  expect(toldDuring(() => editorShown())).toEqual([]);
});

it("counts a move made while the editor was being shown as the user's, and then keeps no keyboard", () => {
  // A click on the panel's tab that lands before the show's answer.
  fromHost({ type: 'editorShowing' });
  pageHasFocus = true;
  page.window.dispatchEvent(new Event('focus'));
  expect(toldDuring(() => fromHost({ type: 'editorShown' }))).toEqual([]);
  fromHost({ type: 'whoFocused', question: 80 });
  expect(answers().pop()).toEqual({ type: 'focusAnswer', question: 80, byUser: true, hasKeyboard: true });
});

it('answers each question by its number, and ignores what is not a question', () => {
  fromHost({ type: 'whoFocused', question: 'seven' });
  fromHost(null);
  fromHost({ type: 'render' });
  editorShown();
  expect(toldDuring(() => fromHost({ type: 'whoFocused', question: 41 }))).toEqual([
    { type: 'focusAnswer', question: 41, byUser: false, hasKeyboard: false },
  ]);
});
