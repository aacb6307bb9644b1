// Keeps the editor Redline just showed for the user in front of a focus change that nobody asked for.
// VS Code's webview reports its focus by polling and takes focus by a message to another process,
// and a closing modal or command palette hands focus back to what had it, often the review panel.
// Any of these can land just after the editor was shown: then the panel, not the editor the user
// asked for, has the keyboard and the status bar. So for a moment after Redline shows an editor, a
// switch to an editor that is not a text editor (the panel) shows it again, once. A switch to
// another text editor, a click in the panel, or closing the editor is the user's own choice.

import * as vscode from 'vscode';
import { Disposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';

/**
 * Longer than the webview's focus poll (250 ms) and a message's way back on a loaded machine;
 * shorter than a person's next deliberate move to the panel (a click in it ends the hold anyway).
 */
export const HOLD_MS = 2_000;

interface Held {
  readonly editor: vscode.TextEditor;
  readonly until: number;
}

export class EditorInFront extends Disposable {
  private held: Held | undefined;

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.register(vscode.window.onDidChangeActiveTextEditor((active) => this.activeChanged(active)));
  }

  /** Called right after showing `editor` because the user (or their assistant) asked for it. */
  hold(editor: vscode.TextEditor): void {
    this.held = { editor, until: this.now() + HOLD_MS };
    // The panel may have taken the focus before the show's answer reached this process.
    this.activeChanged(vscode.window.activeTextEditor);
  }

  /** The user acted in the panel (a click): whatever becomes active next is their choice. */
  release(): void {
    this.held = undefined;
  }

  private activeChanged(active: vscode.TextEditor | undefined): void {
    const held = this.held;
    if (!held) return;
    if (active?.document === held.editor.document) return;
    this.held = undefined;
    if (active !== undefined || this.now() > held.until) return;
    // Closed by the user, or another tab in front of it in its group: nothing was taken from it.
    const stillShown = vscode.window.visibleTextEditors.some(
      (editor) => editor.document === held.editor.document && editor.viewColumn === held.editor.viewColumn,
    );
    if (!stillShown) return;
    // The view state is kept: the editor comes back with the selection and scroll it was shown with.
    vscode.window.showTextDocument(held.editor.document, { viewColumn: held.editor.viewColumn, preview: false }).then(
      () => this.log.info('gave the focus back to the editor shown', { file: held.editor.document.fileName }),
      (error: unknown) => this.log.warn('could not give the focus back to the editor shown', { error }),
    );
  }
}
