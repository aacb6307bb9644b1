// get-selection: describes the editor the user was last working in. Focus on the review panel
// leaves no active text editor, so the last one that had focus is remembered.

import * as path from 'path';
import * as vscode from 'vscode';
import type { GetSelectionResult } from '../../../shared/protocol';

export class SelectionTracker implements vscode.Disposable {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor && isUserDocument(editor.document)) this.lastEditor = editor;
  });

  current(): GetSelectionResult {
    const active = vscode.window.activeTextEditor;
    const editor = active && isUserDocument(active.document) ? active : this.visibleLastEditor();
    if (!editor) return { editor: null };
    const document = editor.document;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    return {
      editor: {
        path: document.uri.scheme === 'file' ? document.uri.fsPath : document.uri.toString(),
        relativePath: folder ? path.relative(folder.uri.fsPath, document.uri.fsPath).split(path.sep).join('/') : null,
        workspaceFolder: folder ? folder.uri.fsPath : null,
        languageId: document.languageId,
        isDirty: document.isDirty,
        isUntitled: document.isUntitled,
        lineCount: document.lineCount,
        selections: editor.selections.map((selection) => ({
          start: { line: selection.start.line + 1, column: selection.start.character + 1 },
          end: { line: selection.end.line + 1, column: selection.end.character + 1 },
          isEmpty: selection.isEmpty,
          text: document.getText(selection),
        })),
      },
    };
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /** The remembered editor, if its document is still shown somewhere. */
  private visibleLastEditor(): vscode.TextEditor | undefined {
    const last = this.lastEditor;
    if (!last) return undefined;
    return vscode.window.visibleTextEditors.find((editor) => editor.document === last.document) ?? undefined;
  }
}

function isUserDocument(document: vscode.TextDocument): boolean {
  return document.uri.scheme !== 'output' && document.uri.scheme !== 'vscode-terminal';
}
