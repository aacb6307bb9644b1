// Redline: Open SARIF as Review…: a SARIF 2.1.0 log (ESLint, CodeQL, Semgrep, a Redline export)
// shown as a review in its own tab, "SARIF import", through the bridge's import, which stores the
// review before it reports success and restores states and replies. A bad or oversized log is
// refused with the reason before anything is shown. Tests pass the file, which the palette asks for.

import * as path from 'path';
import * as vscode from 'vscode';
import {
  describeImport,
  ImportRequestError,
  MAX_SARIF_FILE_BYTES,
  SARIF_IMPORT_ASSISTANT,
  sarifImportRequest,
} from '../../../shared/exchange/importRequest';
import type { ImportReviewParams, ImportReviewResult } from '../../../shared/protocol';

export type ImportReview = (params: ImportReviewParams) => Promise<ImportReviewResult>;

export async function openSarifAsReview(
  importReview: ImportReview,
  given?: vscode.Uri,
): Promise<ImportReviewResult | undefined> {
  const uri = given ?? (await pickLog());
  if (!uri) return undefined;
  const name = path.basename(uri.fsPath);
  try {
    const bytes = await readCapped(uri, name);
    const folder = vscode.workspace.getWorkspaceFolder(uri) ?? vscode.workspace.workspaceFolders?.[0];
    const params = sarifImportRequest(bytes, name, { cwd: folder?.uri.fsPath, assistant: SARIF_IMPORT_ASSISTANT });
    const result = await importReview(params);
    void vscode.window.showInformationMessage(
      `Redline: ${name} ${describeImport(result, params.findings.length).replace(/^Opened/, 'opened')}`,
    );
    return result;
  } catch (error) {
    // A refusal of the log already names the file; any other (a review over budget) is said of it here.
    const message = (error as Error)?.message ?? String(error);
    void vscode.window.showErrorMessage(
      error instanceof ImportRequestError ? `Redline: ${message}` : `Redline did not open ${name}: ${message}`,
    );
    return undefined;
  }
}

function pickLog(): Thenable<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return vscode.window
    .showOpenDialog({
      title: 'Open SARIF as Review',
      openLabel: 'Open as Review',
      canSelectMany: false,
      filters: { 'SARIF logs': ['sarif', 'json'] },
      ...(folder ? { defaultUri: folder } : {}),
    })
    .then((picked) => picked?.[0]);
}

/** The file's bytes, refused by its size before it is read. */
async function readCapped(uri: vscode.Uri, name: string): Promise<Uint8Array> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    throw new ImportRequestError(`${name} cannot be read: no such file.`);
  }
  if (stat.type & vscode.FileType.Directory) throw new ImportRequestError(`${name} is a folder, not a SARIF log.`);
  if (stat.size > MAX_SARIF_FILE_BYTES) {
    throw new ImportRequestError(
      `${name} is larger than the ${MAX_SARIF_FILE_BYTES / 1024 / 1024} MiB a SARIF log may be to open as a review. Filter it (by rule, severity or folder) and open it again.`,
    );
  }
  return vscode.workspace.fs.readFile(uri);
}
