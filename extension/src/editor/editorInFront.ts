// Keeps the editor Redline just showed for the user in front, until the user makes a move of
// their own. VS Code's webview reports its focus by polling, and a closing palette or modal hands
// the focus back to what had it, often the review panel: either can land after the editor was
// shown, whenever a busy machine lets it: then the panel has the keyboard, or VS Code only says it
// has (the panel's tab in front, the status bar without a line, the keyboard still in the editor).
// So when the panel comes to the front while an editor is held, its page is asked whether the user
// moved into it since Redline began to show the editor (a pointer or a key pressed in it, or a
// focus it gained: webview/userMoves.ts), and whether it has the keyboard:
//   - the user moved: the hold ends;
//   - the page has the keyboard without a move of the user: the editor is shown again;
//   - neither: the question stays open. A click on the panel's tab or Ctrl+1 makes the panel active
//     at once, and VS Code hands its page the keyboard only a moment later: the page then answers
//     "the user". If instead a key moves the cursor in the held editor, VS Code only said the
//     panel was in front, and the editor is shown again.
// The user's moves count from before the show, since a click on the panel's tab can land while
// the show's answer is on its way. The page also says when it still had the keyboard with no move
// of the user as the editor was shown: the editor is shown again. No timer: a move to another
// editor, closing or covering the held one, or a move into the panel ends the hold, whenever it
// comes.

import * as vscode from 'vscode';
import { Disposable, toDisposable, type IDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import type { FocusCheckMessage } from '../panel/webviewMessages';
import { keepsPreview } from './tabState';

/** What the hold needs of the review panel. */
export interface PanelFocus {
  /** The panel is the active editor. */
  readonly active: boolean;
  /** The panel became the active editor, with the keyboard or only by VS Code's account (its late focus poll). */
  readonly onDidBecomeActive: vscode.Event<void>;
  /** Posts to the panel's page, which answers a question through `EditorInFront.answered`. */
  post(message: FocusCheckMessage): void;
}

interface Held {
  readonly editor: vscode.TextEditor;
  /** The last question asked of the panel since it came to the front, until its answer decides. */
  question?: number;
}

export class EditorInFront extends Disposable {
  private held: Held | undefined;
  private panel: PanelFocus | undefined;
  private questions = 0;

  constructor(private readonly log: Logger) {
    super();
    this.register(vscode.window.onDidChangeActiveTextEditor((active) => this.activeChanged(active)));
    this.register(vscode.window.onDidChangeTextEditorSelection((change) => this.selectionChanged(change)));
  }

  /** The review panel, while it is open. */
  attachPanel(panel: PanelFocus): IDisposable {
    this.panel = panel;
    const listening = panel.onDidBecomeActive(() => this.panelInFront());
    return toDisposable(() => {
      listening.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
  }

  /**
   * Called right before showing an editor because the user (or their assistant) asked for it: the
   * user's moves count from here, since a click on the panel's tab can land before the show's answer.
   */
  showing(): void {
    this.panel?.post({ type: 'editorShowing' });
  }

  /** Called right after showing `editor`: holds it in front. */
  hold(editor: vscode.TextEditor): void {
    this.held = { editor };
    this.panel?.post({ type: 'editorShown' });
    // The panel may have come to the front before the show's answer reached this process.
    const active = vscode.window.activeTextEditor;
    if (active?.document !== editor.document) this.activeChanged(active);
    else if (this.panel?.active) this.panelInFront();
  }

  /**
   * The panel's answer to question `question`: whether the user moved into it since Redline began
   * to show the editor, and whether its page has the keyboard.
   */
  answered(question: number, byUser: boolean, hasKeyboard: boolean): void {
    const held = this.held;
    if (!held || held.question !== question) return;
    if (byUser) {
      this.held = undefined;
      return this.log.info('the user moved into the panel: the editor shown is no longer held');
    }
    if (!hasKeyboard && this.panel?.active) return; // open: the page answers again if the keyboard comes
    held.question = undefined;
    if (!this.panel?.active) {
      // No text editor and not the panel: another editor the user opened (Settings, a preview, an image).
      if (vscode.window.activeTextEditor === undefined) this.held = undefined;
      return;
    }
    this.showAgain(held);
  }

  /** The panel's page still had the keyboard when the editor was shown: the keyboard goes where the cursor is seen. */
  keyboardKept(): void {
    if (this.held) this.showAgain(this.held);
  }

  private showAgain(held: Held): void {
    if (!stillShown(held.editor)) return void (this.held = undefined);
    const { document, viewColumn } = held.editor;
    // The view state is kept: the editor comes back with the selection and scroll it was shown with.
    vscode.window.showTextDocument(document, { viewColumn, preview: keepsPreview(document.uri, viewColumn) }).then(
      () => this.log.info('gave the front back to the editor shown', { file: document.fileName }),
      (error: unknown) => this.log.warn('could not give the front back to the editor shown', { error }),
    );
  }

  /** A key moved the cursor in the held editor while the panel is said to be in front: the keyboard never left the editor. */
  private selectionChanged({ textEditor, kind }: vscode.TextEditorSelectionChangeEvent): void {
    const held = this.held;
    if (!held || held.question === undefined || kind !== vscode.TextEditorSelectionChangeKind.Keyboard) return;
    if (textEditor.document !== held.editor.document || !this.panel?.active) return;
    held.question = undefined;
    this.showAgain(held);
  }

  private activeChanged(active: vscode.TextEditor | undefined): void {
    const held = this.held;
    if (!held) return;
    if (active?.document === held.editor.document) return;
    // Another text editor, or the held one closed or covered by another tab: the user's choice.
    if (active !== undefined || !stillShown(held.editor)) return void (this.held = undefined);
    // Another kind of editor in front: the panel, asked who brought it there; or one the user opened.
    if (!this.panel) return void (this.held = undefined);
    this.ask(held);
  }

  private panelInFront(): void {
    const held = this.held;
    if (!held) return;
    if (!stillShown(held.editor)) return void (this.held = undefined);
    this.ask(held);
  }

  /** A new question each time: an answer to an earlier one (a page that reloaded never answers) is ignored. */
  private ask(held: Held): void {
    held.question = ++this.questions;
    this.panel?.post({ type: 'whoFocused', question: held.question });
  }
}

/** Still in its column, in front of the other tabs there. */
function stillShown(editor: vscode.TextEditor): boolean {
  return vscode.window.visibleTextEditors.some(
    (visible) => visible.document === editor.document && visible.viewColumn === editor.viewColumn,
  );
}
