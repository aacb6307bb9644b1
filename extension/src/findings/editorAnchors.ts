// Feeds the editor's events to the finding anchors: edits as they happen, files changed or
// deleted on disk (the workspace's own file watcher), and files opened after they changed.

import * as vscode from 'vscode';
import type { FindingAnchors } from '../review/findingAnchors';

export function linesOf(document: vscode.TextDocument): string[] {
  return document.getText().split(/\r\n|\r|\n/);
}

/** The lines of an open file document, saved or not. */
export function openDocumentLines(file: string): string[] | undefined {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
  return open && linesOf(open);
}

export function followEditor(anchors: FindingAnchors): vscode.Disposable {
  // Creations are of no interest: a finding's file existed when it was presented.
  const watcher = vscode.workspace.createFileSystemWatcher('**/*', true, false, false);
  const onDisk = (uri: vscode.Uri) => void anchors.fileChanged(uri.fsPath);
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange(onDisk),
    watcher.onDidDelete(onDisk),
    vscode.workspace.onDidChangeTextDocument(({ document, contentChanges }) => {
      if (document.uri.scheme !== 'file') return;
      const edits = contentChanges.map(({ range, text }) => ({
        startLine: range.start.line,
        startCharacter: range.start.character,
        endLine: range.end.line,
        endCharacter: range.end.character,
        text,
      }));
      anchors.followEdits(document.uri.fsPath, edits, () => linesOf(document));
    }),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (document.uri.scheme === 'file') anchors.fileOpened(document.uri.fsPath, linesOf(document));
    }),
  );
}
