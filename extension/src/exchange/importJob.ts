// One SARIF import as the import worker runs it (sarifImportWorker.ts): the log read from its file
// (regular files only, capped while reading), converted with its paths found in the workspace, and
// checked as import-review's params. What goes back is the finished request, or why there is none.
// No `vscode`: it runs in a worker thread, and in tests.

import {
  ImportRequestError,
  MAX_SARIF_FILE_BYTES,
  sarifImportRequest,
  type SarifImportRequest,
} from '../../../shared/exchange/importRequest';
import { LogFileError, readLogFile } from '../../../shared/exchange/logFile';
import type { WorkspaceFilesOptions } from '../../../shared/exchange/workspaceFiles';

export interface ImportJob {
  /** A local file, read by the worker; or bytes the editor read (a file on another file system). */
  readonly source: { readonly path: string } | { readonly bytes: Uint8Array };
  /** The file's name, as messages and imported replies name it. */
  readonly name: string;
  readonly workspace: WorkspaceFilesOptions;
  readonly assistant?: string;
}

export type ImportJobReply =
  | { readonly ok: true; readonly request: SarifImportRequest }
  /** `refused`: the log (not Redline) is why, and the message says what to do. */
  | { readonly ok: false; readonly refused: boolean; readonly message: string };

export async function runImportJob(job: ImportJob): Promise<ImportJobReply> {
  try {
    const bytes =
      'path' in job.source
        ? await readLogFile(job.source.path, { maxBytes: MAX_SARIF_FILE_BYTES, name: job.name })
        : job.source.bytes;
    const request = await sarifImportRequest(bytes, job.name, { workspace: job.workspace, assistant: job.assistant });
    return { ok: true, request };
  } catch (error) {
    const refused = error instanceof ImportRequestError || error instanceof LogFileError;
    return { ok: false, refused, message: (error as Error)?.message ?? String(error) };
  }
}
