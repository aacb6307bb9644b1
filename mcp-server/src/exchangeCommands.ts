// The command line's exchange commands: `export` writes the window's current review as SARIF,
// rdjsonl or markdown (to stdout, or atomically to a file), and `present --sarif FILE` opens a SARIF
// log as a review. The window does the work (export-review, import-review); this reads and writes.

import * as fs from 'fs';
import * as path from 'path';
import { EXPORT_FORMATS, type ExportFormat, type Method, type ParamsOf, type ResultOf } from '../../shared/protocol';
import { replaceFile } from '../../shared/atomicFile';
import {
  describeImport,
  describeOmitted,
  ImportRequestError,
  MAX_SARIF_FILE_BYTES,
  sarifImportRequest,
} from '../../shared/exchange/importRequest';
import { ReviewInputError, readBounded } from './reviewInput';
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
  const cut = exported.omitted ? ` ${describeOmitted(exported.omitted)}` : '';
  if (output === undefined) {
    io.stdout(exported.text);
    if (cut) io.stderr(`redline:${cut}\n`);
    return;
  }
  const target = path.resolve(io.cwd, output);
  try {
    // Readable by others as any file the user makes (0666 less the umask), not the store's 0600.
    await replaceFile(target, exported.text, { mode: 0o666 });
  } catch (error) {
    throw new ReviewInputError(
      `Cannot write ${output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Nothing was written.`,
    );
  }
  io.stderr(
    `Exported revision ${exported.revision} (${exported.findings} findings) as ${format} to ${target}.${cut}\n`,
  );
}

/** `present --sarif FILE`: read with a cap, converted here, shown by the window. */
export async function presentSarif(file: string, io: ExchangeIo, request: Request): Promise<void> {
  let bytes: Buffer | 'too-large';
  try {
    bytes = await readBounded(
      fs.createReadStream(path.resolve(io.cwd, file), { start: 0, end: MAX_SARIF_FILE_BYTES }),
      MAX_SARIF_FILE_BYTES,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new ReviewInputError(`Cannot read ${file}: ${why}.`);
  }
  if (bytes === 'too-large') {
    throw new ReviewInputError(
      `${file} is larger than the ${MAX_SARIF_FILE_BYTES / 1024 / 1024} MiB a SARIF log may be to open as a review. Filter it (by rule, severity or folder) and open it again.`,
    );
  }
  let params;
  try {
    params = sarifImportRequest(bytes, file, { cwd: io.cwd });
  } catch (error) {
    if (error instanceof ImportRequestError) throw new ReviewInputError(error.message);
    throw error;
  }
  const result = await request('import-review', params);
  io.stdout(`${describeImport(result, params.findings.length)}\n`);
  for (const reference of result.references.broken)
    io.stdout(`  broken: ${reference.reference} at line ${reference.line} (${reference.reason})\n`);
}
