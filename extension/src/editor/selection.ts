// get-selection: describes the editor the user was last working in. Focus on the review panel
// leaves no active text editor, so the last one that had focus is remembered. The text returned
// is capped, and withheld for a file outside the workspace that Redline opened for an assistant.

import * as path from 'path';
import * as vscode from 'vscode';
import { Disposable } from '../../../shared/lifecycle';
import type { GetSelectionResult } from '../../../shared/protocol';
import { capSelectionTexts } from './selectionText';
import { WithheldDocuments } from './withheldDocuments';

/** Selection changes that come from the user, not from an extension setting a selection (Command). */
const USER_KINDS = new Set([vscode.TextEditorSelectionChangeKind.Keyboard, vscode.TextEditorSelectionChangeKind.Mouse]);

export class SelectionTracker extends Disposable {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;

  constructor(readonly withheld = new WithheldDocuments()) {
    super();
    this.register(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && isUserDocument(editor.document)) this.lastEditor = editor;
      }),
    );
    this.register(
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.kind !== undefined && USER_KINDS.has(event.kind))
          withheld.userSelected(event.textEditor.document.uri.toString());
      }),
    );
    this.register(vscode.workspace.onDidCloseTextDocument((document) => withheld.closed(document.uri.toString())));
  }

  current(): GetSelectionResult {
    const active = vscode.window.activeTextEditor;
    const editor = active && isUserDocument(active.document) ? active : this.visibleLastEditor();
    if (!editor) return { editor: null };
    const document = editor.document;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const withheld = this.withheld.isWithheld(document.uri.toString());
    // Measured by offsets, so a select-all in a huge file is never read whole.
    const texts = capSelectionTexts(
      editor.selections.map((selection) => {
        const startOffset = document.offsetAt(selection.start);
        return {
          length: withheld ? 0 : document.offsetAt(selection.end) - startOffset,
          read: (units: number) =>
            document.getText(new vscode.Range(selection.start, document.positionAt(startOffset + units))),
        };
      }),
    );
    return {
      editor: {
        path: document.uri.scheme === 'file' ? document.uri.fsPath : document.uri.toString(),
        relativePath: folder ? path.relative(folder.uri.fsPath, document.uri.fsPath).split(path.sep).join('/') : null,
        workspaceFolder: folder ? folder.uri.fsPath : null,
        languageId: document.languageId,
        isDirty: document.isDirty,
        isUntitled: document.isUntitled,
        lineCount: document.lineCount,
        selections: editor.selections.map((selection, i) => ({
          start: { line: selection.start.line + 1, column: selection.start.character + 1 },
          end: { line: selection.end.line + 1, column: selection.end.character + 1 },
          isEmpty: selection.isEmpty,
          ...texts[i],
          ...(withheld && !selection.isEmpty ? { withheld: true } : {}),
        })),
      },
    };
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
