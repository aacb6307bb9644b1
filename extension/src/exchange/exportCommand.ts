// Redline: Export Review…: the review the panel shows, written as SARIF, rdjsonl or markdown to a
// file the user picks, with its findings where their code is now and the user's answers. It says
// what the format left out, and offers to open the file. Tests pass the format and the file, which
// the palette asks for.

import * as path from 'path';
import * as vscode from 'vscode';
import { writeUserFile } from '../../../shared/userFile';
import { describeOmitted } from '../../../shared/exchange/importRequest';
import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/protocol';
import type { AssistantReview } from '../review/assistantReviews';
import { buildExportedReview } from './exportedReviewBuilder';
import { exportText, FORMAT_FILES } from './exportFormats';

export interface ExportTarget {
  readonly format?: ExportFormat;
  readonly uri?: vscode.Uri;
}

export interface ExportOutcome {
  readonly uri: vscode.Uri;
  readonly findings: number;
  readonly omitted: number;
  /** What else the format left out, as the notification said it. */
  readonly leftOut: readonly string[];
  /** Results of an imported log kept without a file of the workspace. */
  readonly withoutFile: number;
}

export async function exportReviewToFile(
  owner: AssistantReview,
  roots: (cwd: string | undefined) => readonly string[],
  target: ExportTarget = {},
): Promise<ExportOutcome | undefined> {
  const review = await buildExportedReview(owner, roots);
  if (!review) {
    void vscode.window.showInformationMessage('Redline: there is no review to export yet.');
    return undefined;
  }
  const format = target.format ?? (await pickFormat());
  if (!format) return undefined;
  const uri = target.uri ?? (await pickFile(format, review.repositoryRoot, owner.label));
  if (!uri) return undefined;
  try {
    const { text, omitted, leftOut, withoutFile } = await exportText(review, format);
    await writeText(uri, text);
    const findings = review.findings.length - omitted;
    const kept =
      withoutFile > 0 ? `, and ${withoutFile} results without a file in the workspace, where the log put them` : '';
    const cut = [...(omitted > 0 ? [describeOmitted(omitted)] : []), ...leftOut].map((note) => ` ${note}`).join('');
    const said = `Redline: exported ${findings} findings${kept} as ${FORMAT_FILES[format].name} to ${path.basename(uri.fsPath)}.${cut}`;
    // Not awaited: the offer stays in the notification centre as long as the user likes.
    void vscode.window.showInformationMessage(said, 'Open').then(async (choice) => {
      if (choice === 'Open') await vscode.window.showTextDocument(uri);
    });
    return { uri, findings, omitted, leftOut, withoutFile };
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Redline could not export the review to ${uri.fsPath}: ${(error as Error)?.message ?? error}. Nothing was written.`,
    );
    return undefined;
  }
}

async function pickFormat(): Promise<ExportFormat | undefined> {
  const picked = await vscode.window.showQuickPick(
    EXPORT_FORMATS.map((format) => ({ label: FORMAT_FILES[format].label, format })),
    { title: 'Export Review', placeHolder: 'The format to write the review in' },
  );
  return picked?.format;
}

function pickFile(format: ExportFormat, root: string, label: string): Thenable<vscode.Uri | undefined> {
  const { extension } = FORMAT_FILES[format];
  const name = `${label.replace(/[^\w.-]+/g, '-').toLowerCase() || 'review'}.${extension}`;
  return vscode.window.showSaveDialog({
    title: 'Export Review',
    saveLabel: 'Export',
    ...(root ? { defaultUri: vscode.Uri.file(path.join(root, name)) } : {}),
    filters: { [FORMAT_FILES[format].label]: [extension] },
  });
}

/**
 * A local file is replaced whole (never half-written), through a link to its target and keeping its
 * mode (shared/userFile.ts); any other is written through the editor's file system.
 */
async function writeText(uri: vscode.Uri, text: string): Promise<void> {
  if (uri.scheme === 'file') await writeUserFile(uri.fsPath, text);
  else await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
}
