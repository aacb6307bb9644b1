// What an imported SARIF log was (shared/protocol/importedLog.ts), kept beside the review it became,
// with the finding each of its results became in the window: what the export writes back so that a
// tool's results leave as that tool's, and its results without a place are not lost. It holds for the
// review it was imported as, and for what is appended to it; a review presented in its place drops it.
// Read as untrusted: validated and capped, a bad file moved aside.

import { z } from 'zod';
import type { Logger } from '../../../shared/logger';
import { ImportedLog, MAX_FINDINGS } from '../../../shared/protocol';
import { StoredJsonFile } from './storedJsonFile';

const FILE = 'imported-log.json';
/** The log's record is held to 4 MiB when imported; this leaves room for its JSON. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

const Stored = z.object({
  version: z.literal(1),
  /** The revision the log was imported as. */
  revision: z.number().int().min(1),
  log: ImportedLog,
  /** For each of the log's results, the id of the finding it became, or null. */
  findingIds: z.array(z.string().max(64).nullable()).max(MAX_FINDINGS),
});
export type ImportedLogRecord = z.infer<typeof Stored>;

export class ImportedLogFile {
  private readonly file: StoredJsonFile<ImportedLogRecord>;
  /** What was kept last, so that an export does not read the file each time. */
  private kept: ImportedLogRecord | null | undefined;

  constructor(directory: string | undefined, log: Logger) {
    this.file = new StoredJsonFile({
      directory,
      name: FILE,
      schema: Stored,
      maxBytes: MAX_FILE_BYTES,
      what: 'record of the imported SARIF log',
      lost: "Its export will hold Redline's findings without the tools' own rules and fingerprints.",
      log,
    });
  }

  /** The record, or undefined when none is kept. */
  async load(): Promise<ImportedLogRecord | undefined> {
    if (this.kept === undefined) this.kept = (await this.file.load()) ?? null;
    return this.kept ?? undefined;
  }

  /** Keeps `record`; resolves once it is on disk. */
  save(record: ImportedLogRecord): Promise<void> {
    this.kept = record;
    return this.file.save(record);
  }
}
