// Open findings in the Problems view, with source "Redline", and the quick fixes that answer them:
// Reply…, Resolve, and "Ask the assistant to fix", which records a feedback item for the assistant.

import * as vscode from 'vscode';
import { Disposable } from '../../../shared/lifecycle';
import type { FindingSeverity } from '../../../shared/protocol';
import { FindingCommands } from '../constants';
import type { ShownFinding } from '../review/reviewFindings';

export const DIAGNOSTIC_SOURCE = 'Redline';
const END_OF_LINE = 100_000;

const SEVERITY: Record<FindingSeverity | 'none', vscode.DiagnosticSeverity> = {
  blocking: vscode.DiagnosticSeverity.Error,
  bug: vscode.DiagnosticSeverity.Error,
  risk: vscode.DiagnosticSeverity.Warning,
  suggestion: vscode.DiagnosticSeverity.Information,
  question: vscode.DiagnosticSeverity.Information,
  nit: vscode.DiagnosticSeverity.Hint,
  praise: vscode.DiagnosticSeverity.Hint,
  none: vscode.DiagnosticSeverity.Information,
};

export class FindingDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection('redline'));

  constructor() {
    super();
    this.register(
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FindingActions(), {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
    );
  }

  /** Shows the open findings; resolved, accepted and won't-fix ones leave the Problems view. */
  update(findings: readonly ShownFinding[]): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const finding of findings) {
      if (finding.state !== 'open') continue;
      // To the end of the last line; the editor clamps a column past it.
      const range = new vscode.Range(finding.line - 1, 0, finding.endLine - 1, END_OF_LINE);
      const message = `${finding.severity ? `${finding.severity}: ` : ''}${finding.title}${finding.stale ? ' (code changed)' : ''}`;
      const diagnostic = new vscode.Diagnostic(range, message, SEVERITY[finding.severity ?? 'none']);
      diagnostic.source = DIAGNOSTIC_SOURCE;
      diagnostic.code = finding.id;
      const list = byFile.get(finding.file);
      if (list) list.push(diagnostic);
      else byFile.set(finding.file, [diagnostic]);
    }
    this.collection.clear();
    for (const [file, diagnostics] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
  }
}

class FindingActions implements vscode.CodeActionProvider {
  provideCodeActions(
    _document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE || typeof diagnostic.code !== 'string') continue;
      const id = diagnostic.code;
      const action = (title: string, command: string) => {
        const fix = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        fix.diagnostics = [diagnostic];
        fix.command = { title, command, arguments: [id] };
        actions.push(fix);
      };
      action('Reply to this finding…', FindingCommands.replyTo);
      action('Resolve this finding', FindingCommands.resolveById);
      action('Ask the assistant to fix this', FindingCommands.askToFix);
    }
    return actions;
  }
}
