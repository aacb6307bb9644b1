// "Apply…" on a suggestion: the change is shown in VS Code's diff editor (the file as it is now
// against the file with the suggestion in place), then made in the file's editor only if the
// user answers Apply. Redline saves nothing: the edit is saved as the user's own edits are.

import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { ShownFinding } from '../review/reviewFindings';

const SCHEME = 'redline-suggestion';
/** Proposals kept for diff editors that may still show them; the oldest go first. */
const KEPT_PROPOSALS = 20;

export class SuggestionApplier extends Disposable {
  private readonly proposals = new Map<string, string>();
  private next = 0;

  constructor(
    private readonly findingOf: (id: string) => ShownFinding | undefined,
    private readonly codeColumn: () => vscode.ViewColumn,
  ) {
    super();
    this.register(toDisposable(() => this.proposals.clear()));
    this.register(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
        provideTextDocumentContent: (uri) => this.proposals.get(uri.query) ?? '',
      }),
    );
  }

  /** Shows the suggestion as a diff and applies it if the user agrees; says why when it cannot. */
  async apply(findingId: string, index: number): Promise<boolean> {
    const finding = this.findingOf(findingId);
    const replacement = finding?.suggestions[index];
    if (!finding || replacement === undefined) {
      void vscode.window.showWarningMessage('Redline: that suggestion is no longer in the review.');
      return false;
    }
    if (finding.stale) {
      void vscode.window.showWarningMessage(
        `Redline: the code this suggestion was for (${finding.reference}) has changed since the review; it cannot be applied safely.`,
      );
      return false;
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(finding.file));
    const last = Math.min(finding.endLine, document.lineCount) - 1;
    const range = new vscode.Range(finding.line - 1, 0, last, document.lineAt(last).text.length);
    const end = document.lineAt(document.lineCount - 1).range.end;
    const proposed =
      document.getText(new vscode.Range(0, 0, range.start.line, 0)) +
      replacement +
      document.getText(new vscode.Range(range.end, end));
    const key = String(++this.next);
    this.proposals.set(key, proposed);
    if (this.proposals.size > KEPT_PROPOSALS) this.proposals.delete(this.proposals.keys().next().value!);
    const place = `${vscode.workspace.asRelativePath(document.uri)}:${finding.line}${last + 1 > finding.line ? `-${last + 1}` : ''}`;
    await vscode.commands.executeCommand(
      'vscode.diff',
      document.uri,
      vscode.Uri.from({ scheme: SCHEME, path: document.uri.path, query: key }),
      `${place}: now ↔ suggested`,
      { viewColumn: this.codeColumn(), preview: true },
    );
    const answer = await vscode.window.showInformationMessage(
      `Apply the suggested change to ${place}?`,
      { modal: true, detail: "The change is made in the file's editor, where you can review or undo it." },
      'Apply',
    );
    if (answer !== 'Apply') return false;
    // Through the file's own editor, which changes the document and never saves it.
    const editor = await vscode.window.showTextDocument(document, { viewColumn: this.codeColumn(), preview: false });
    const applied = await editor.edit((builder) => builder.replace(range, replacement));
    if (applied) editor.selection = new vscode.Selection(range.start, range.start);
    return applied;
  }
}
