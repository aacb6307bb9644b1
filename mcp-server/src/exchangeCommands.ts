// The command line's exchange commands: `export` writes the window's current review as SARIF,
// rdjsonl or markdown (to stdout, or crash-safely to a file, through a link to its target), and
// `present --sarif FILE` opens a SARIF log as a review. The window does the export (export-review)
// and shows the import (import-review); the log is read and converted here, in this process, with
// its paths looked for in the window's folders, so the window's thread never holds it.

import * as path from 'path';
import { EXPORT_FORMATS, type ExportFormat, type Method, type ParamsOf, type ResultOf } from '../../shared/protocol';
import {
  describeImport,
  describeOmitted,
  ImportRequestError,
  MAX_SARIF_FILE_BYTES,
  sarifImportRequest,
} from '../../shared/exchange/importRequest';
import { LogFileError, readLogFile } from '../../shared/exchange/logFile';
import { UserFileError, writeUserFile } from '../../shared/userFile';
import { ReviewInputError } from './reviewInput';
import { readWholeExport } from './wholeReview';
import { UsageError } from './usageError';

type Request = <M extends Method>(method: M, params: ParamsOf<M>) => Promise<ResultOf<M>>;

export interface ExchangeIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** `export --format F [--output FILE]`: nothing is written when the window shows no review. */
export async function exportReview(
  { format, output }: { readonly format?: string; readonly output?: string },
  io: ExchangeIo,
  request: Request,
): Promise<void> {
  if (!EXPORT_FORMATS.includes(format as ExportFormat)) {
    throw new UsageError(
      format === undefined
        ? `export needs --format: ${EXPORT_FORMATS.join(', ')}.`
        : `--format must be ${EXPORT_FORMATS.join(', ')}, not "${format}".`,
    );
  }
  const exported = await readWholeExport((cursor) =>
    request('export-review', { format: format as ExportFormat, ...(cursor !== undefined ? { cursor } : {}) }),
  );
  if (exported.revision === 0)
    throw new Error('The window shows no review to export; present one first. Nothing was written.');
  const cut = [...(exported.omitted ? [describeOmitted(exported.omitted)] : []), ...(exported.leftOut ?? [])].join(' ');
  const kept = exported.withoutFile
    ? `, and ${exported.withoutFile} results without a file in the workspace, where the log put them`
    : '';
  if (output === undefined) {
    io.stdout(exported.text);
    if (cut) io.stderr(`redline: ${cut}\n`);
    return;
  }
  const target = path.resolve(io.cwd, output);
  try {
    await writeUserFile(target, exported.text);
  } catch (error) {
    throw new ReviewInputError(
      error instanceof UserFileError
        ? `${error.message} Nothing was written.`
        : `Cannot write ${output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Nothing was written.`,
    );
  }
  io.stderr(
    `Exported revision ${exported.revision} (${exported.findings} findings${kept}) as ${format} to ${target}.${cut ? ` ${cut}` : ''}\n`,
  );
}

/** `present --sarif FILE`: read with a cap, converted here with its paths found in the window's folders, shown by the window. */
export async function presentSarif(file: string, io: ExchangeIo, request: Request): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await readLogFile(path.resolve(io.cwd, file), { maxBytes: MAX_SARIF_FILE_BYTES, name: file });
  } catch (error) {
    if (error instanceof LogFileError) throw new ReviewInputError(error.message);
    throw error;
  }
  const { folders } = await request('get-workspace-folders', {});
  const roots = folders.length > 0 ? folders.map((folder) => folder.path) : [io.cwd];
  let imported;
  try {
    imported = await sarifImportRequest(bytes, path.basename(file), { workspace: { roots, cwd: io.cwd } });
  } catch (error) {
    if (error instanceof ImportRequestError) throw new ReviewInputError(error.message);
    throw error;
  }
  const result = await request('import-review', imported.params);
  io.stdout(`${describeImport(result, imported.summary)}\n`);
  for (const reference of result.references.broken)
    io.stdout(`  broken: ${reference.reference} at line ${reference.line} (${reference.reason})\n`);
  if (imported.summary.notFound.length > 0)
    io.stdout(
      '  To map the rest, open the log in the window with "Redline: Open SARIF as Review…" and locate one of these files.\n',
    );
}
