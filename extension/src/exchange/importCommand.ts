// Redline: Open SARIF as Review…: a SARIF 2.1.0 log (ESLint, CodeQL, Semgrep, Trivy, a Redline
// export) shown as a review in its own tab, "SARIF import", through the bridge's import, which stores
// the review before it reports success and restores states and replies, marked as imported. The log
// is read, converted and its paths found in the workspace in a worker (sarifImportRunner.ts): this
// thread only receives the finished review. A bad or oversized log is refused with the reason
// before anything is shown. When some of its files were not found, the user may locate one: the
// prefix that maps it is remembered (locatedPrefixes.ts) and the log is opened again with it.
// Tests pass the files, which the dialogs ask for.

import { promises as fs } from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  describeImport,
  ImportRequestError,
  MAX_SARIF_FILE_BYTES,
  SARIF_IMPORT_ASSISTANT,
  type SarifImportRequest,
} from '../../../shared/exchange/importRequest';
import { prefixFromLocated } from '../../../shared/exchange/pathMapping';
import type { ImportSummary } from '../../../shared/exchange/sarifImport';
import { oneLine } from '../../../shared/plainText';
import type { ImportReviewParams, ImportReviewResult } from '../../../shared/protocol';
import type { ImportJob } from './importJob';
import type { LocatedPrefixes } from './locatedPrefixes';

export type ImportReview = (params: ImportReviewParams) => Promise<ImportReviewResult>;

export interface SarifImportDeps {
  /** The bridge's import-review, made by the window itself. */
  readonly importReview: ImportReview;
  /** Runs the job off this thread (sarifImportRunner.ts). */
  readonly runImport: (job: ImportJob) => Promise<SarifImportRequest>;
  readonly located: LocatedPrefixes;
}

export async function openSarifAsReview(
  deps: SarifImportDeps,
  given?: vscode.Uri,
): Promise<ImportReviewResult | undefined> {
  const uri = given ?? (await pickLog());
  if (!uri) return undefined;
  return importLog(deps, uri);
}

/**
 * After an import whose log names `logPath`, which was not found: the file the user locates for it
 * (`chosen`, else asked for) gives the prefix that maps it, which is remembered; the log is then
 * opened again, and every path under that prefix follows.
 */
export async function locateAndImport(
  deps: SarifImportDeps,
  log: vscode.Uri,
  { logPath, chosen }: { readonly logPath: string; readonly chosen?: vscode.Uri },
): Promise<ImportReviewResult | undefined> {
  const local = chosen ?? (await pickLocated(logPath));
  if (!local) return undefined;
  const real = await fs.realpath(local.fsPath).catch(() => local.fsPath);
  const prefix = prefixFromLocated(logPath, real);
  if (!prefix) {
    void vscode.window.showErrorMessage(
      `Redline: ${path.basename(real)} is not the file the log names (${oneLine(logPath, 300)}): locate a file of the same name.`,
    );
    return undefined;
  }
  await deps.located.remember(prefix);
  return importLog(deps, log);
}

async function importLog(deps: SarifImportDeps, uri: vscode.Uri): Promise<ImportReviewResult | undefined> {
  const name = path.basename(uri.fsPath);
  try {
    const source = uri.scheme === 'file' ? { path: uri.fsPath } : { bytes: await readElsewhere(uri, name) };
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const folder = vscode.workspace.getWorkspaceFolder(uri) ?? folders[0];
    const roots = folders.length > 0 ? folders.map((f) => f.uri.fsPath) : [path.dirname(uri.fsPath)];
    const request = await deps.runImport({
      source,
      name,
      workspace: { roots, cwd: folder?.uri.fsPath ?? roots[0], located: deps.located.all() },
      assistant: SARIF_IMPORT_ASSISTANT,
    });
    const result = await deps.importReview(request.params);
    report(deps, { log: uri, summary: request.summary, result });
    return result;
  } catch (error) {
    // A refusal of the log already names the file; any other (a review over budget) is said of it here.
    const message = oneLine((error as Error)?.message ?? String(error), 2000);
    void vscode.window.showErrorMessage(
      error instanceof ImportRequestError ? `Redline: ${message}` : `Redline did not open ${name}: ${message}`,
    );
    return undefined;
  }
}

/** What the import did; with an offer to locate a file when some were not found (not awaited: it stays in the notification centre). */
function report(
  deps: SarifImportDeps,
  { log, summary, result }: { log: vscode.Uri; summary: ImportSummary; result: ImportReviewResult },
): void {
  const said = `Redline: ${path.basename(log.fsPath)} ${describeImport(result, summary).replace(/^Opened/, 'opened')}`;
  const logPath = summary.notFound[0];
  if (logPath === undefined) {
    void vscode.window.showInformationMessage(said);
    return;
  }
  const locate = `Locate ${oneLine(logPath.split('/').pop() ?? logPath, 80)}…`;
  void vscode.window.showWarningMessage(said, locate).then(async (choice) => {
    if (choice === locate) await locateAndImport(deps, log, { logPath });
  });
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

function pickLocated(logPath: string): Thenable<vscode.Uri | undefined> {
  const name = logPath.split('/').pop() ?? logPath;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return vscode.window
    .showOpenDialog({
      title: `Locate ${oneLine(name, 80)} (the log names ${oneLine(logPath, 200)})`,
      openLabel: 'Use This File',
      canSelectMany: false,
      ...(folder ? { defaultUri: folder } : {}),
    })
    .then((picked) => picked?.[0]);
}

/** A log on another file system (a remote's): refused by its type and size before it is read. */
async function readElsewhere(uri: vscode.Uri, name: string): Promise<Uint8Array> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    throw new ImportRequestError(`${name} cannot be read: no such file.`);
  }
  if (stat.type !== vscode.FileType.File)
    throw new ImportRequestError(`${name} is not a regular file, so it is not read. Open the SARIF file itself.`);
  const tooLarge = new ImportRequestError(
    `${name} is larger than the ${MAX_SARIF_FILE_BYTES / 1024 / 1024} MiB a SARIF log may be to open as a review. Filter it (by rule, severity or folder) and open it again.`,
  );
  if (stat.size > MAX_SARIF_FILE_BYTES) throw tooLarge;
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > MAX_SARIF_FILE_BYTES) throw tooLarge;
  return bytes;
}
