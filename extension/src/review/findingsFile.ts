// The findings the renderer found in a review, kept beside its conversation, so that a window that
// opens on a stored review draws its threads and Problems entries from them and renders nothing
// until the panel asks. Read as untrusted: validated and capped, a bad file moved aside, and a
// file of another revision ignored (that review is rendered instead).

import { z } from 'zod';
import type { Logger } from '../../../shared/logger';
import { FINDING_SEVERITIES, MAX_FINDINGS } from '../../../shared/protocol';
import { StoredJsonFile } from './storedJsonFile';
import type { ReviewFinding } from '../render/findingExtraction';

const FILE = 'findings.json';
/** Findings' text is a review's blocks: a file larger than this is not written, and the review is rendered instead. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

const Line = z.number().int().min(1);
const StoredFinding = z.object({
  id: z.string().max(64),
  severity: z.enum(FINDING_SEVERITIES).nullable(),
  title: z.string().max(1024),
  reference: z.string().max(4096),
  file: z.string().max(4096),
  line: Line,
  endLine: Line,
  reviewLine: Line,
  markdown: z.string(),
  suggestions: z.array(z.string()).max(100),
});
const Stored = z.object({
  version: z.literal(1),
  revision: z.number().int().min(1),
  findings: z.array(StoredFinding).max(MAX_FINDINGS),
});
type Stored = z.infer<typeof Stored>;

/** Where the findings of one assistant's current review are kept; without a directory (tests), nowhere. */
export class FindingsFile {
  private readonly file: StoredJsonFile<Stored>;

  constructor(directory: string | undefined, log: Logger) {
    this.file = new StoredJsonFile({
      directory,
      name: FILE,
      schema: Stored,
      maxBytes: MAX_FILE_BYTES,
      what: 'kept findings of the review',
      lost: 'The review will be rendered again at the next start.',
      log,
    });
  }

  /** The findings kept for `revision`; undefined when none were, or for another revision. */
  async load(revision: number): Promise<ReviewFinding[] | undefined> {
    const stored = await this.file.load();
    if (stored?.revision !== revision) return undefined;
    return stored.findings.map((finding) => ({ ...finding, suggestionTokens: [] }));
  }

  /**
   * Keeps `findings` as `revision`'s; resolves once they are on disk, rejects if they could not be.
   * A failure costs only a render at the next start: a caller that need not know may drop the promise.
   */
  save(revision: number, findings: readonly ReviewFinding[]): Promise<void> {
    return this.file.save({
      version: 1,
      revision,
      findings: findings.map(
        ({ id, severity, title, reference, file, line, endLine, reviewLine, markdown, suggestions }) => ({
          id,
          severity,
          title,
          reference,
          file,
          line,
          endLine,
          reviewLine,
          markdown,
          suggestions: [...suggestions],
        }),
      ),
    });
  }

  /** Resolves when the last save is done; never rejects. */
  idle(): Promise<void> {
    return this.file.idle();
  }
}
