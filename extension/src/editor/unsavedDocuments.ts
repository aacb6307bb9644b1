// The text of files open with unsaved changes: a suggestion is applied in the file's editor, so the
// panel shows its diff against that text, not against the file on disk (reviewRenderer.ts sends it
// to the render worker only for a review that has a suggestion).

import * as vscode from 'vscode';

/** What one render is sent at most; past it, the remaining files' diffs are against the disk. */
const MAX_UNSAVED_BYTES = 8 * 1024 * 1024;

export function unsavedDocuments(): Array<[string, string]> {
  const documents: Array<[string, string]> = [];
  let bytes = 0;
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isDirty || document.uri.scheme !== 'file') continue;
    const text = document.getText();
    bytes += text.length;
    if (bytes > MAX_UNSAVED_BYTES) break;
    documents.push([document.uri.fsPath, text]);
  }
  return documents;
}
