// The findings the renderer found in a review, kept beside its conversation, so that a window that
// opens on a stored review draws its threads and Problems entries from them and renders nothing
// until the panel asks (a 10 MiB review took 2 s to render). Read as untrusted: validated and
// capped, a bad file moved aside, and a file of another revision ignored: that review is rendered.

import { promises as fs } from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { FINDING_SEVERITIES } from '../../../shared/protocol';
import { replaceFile } from './atomicFile';
import { GroupCommit } from './groupCommit';
import { describeProblem } from './storedState';
import { readValidFile } from './validatedFile';
import { MAX_FINDINGS, type ReviewFinding } from '../render/findings';

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
const Stored = z.object({ version: z.literal(1), revision: z.number().int().min(1), findings: z.array(StoredFinding).max(MAX_FINDINGS) });
type Stored = z.infer<typeof Stored>;

/** Where the findings of one assistant's current review are kept; without a directory (tests), nowhere. */
export class FindingsFile {
  private latest: Stored | undefined;
  private readonly commit = new GroupCommit(() => this.write());

  constructor(
    private readonly directory: string | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /** The findings kept for `revision`; undefined when none were, or for another revision. */
  async load(revision: number): Promise<ReviewFinding[] | undefined> {
    if (!this.directory) return undefined;
    const stored = await readValidFile(path.join(this.directory, FILE), {
      schema: Stored,
      maxBytes: MAX_FILE_BYTES,
      what: 'kept findings of the review',
      warn: this.warn,
    });
    if (stored?.revision !== revision) return undefined;
    return stored.findings.map((finding) => ({ ...finding, suggestionTokens: [] }));
  }

  /** Keeps `findings` as `revision`'s; a failed write only costs a render at the next start. */
  save(revision: number, findings: readonly ReviewFinding[]): Promise<void> {
    this.latest = {
      version: 1,
      revision,
      findings: findings.map(({ id, severity, title, reference, file, line, endLine, reviewLine, markdown, suggestions }) => ({
        id, severity, title, reference, file, line, endLine, reviewLine, markdown, suggestions: [...suggestions],
      })),
    };
    return this.commit.request().catch(() => undefined);
  }

  /** Resolves when the last save is done; never rejects. */
  idle(): Promise<void> {
    return this.commit.idle();
  }

  private async write(): Promise<void> {
    if (!this.directory || !this.latest) return;
    const target = path.join(this.directory, FILE);
    try {
      const data = JSON.stringify(this.latest);
      // Too large to be worth reading back: the review is rendered instead, as with no file.
      if (Buffer.byteLength(data) > MAX_FILE_BYTES) return await fs.rm(target, { force: true });
      await replaceFile(target, data);
    } catch (error) {
      this.warn(`Redline could not keep the findings in ${target}: ${describeProblem(error)}. The review will be rendered again at the next start.`);
      throw error;
    }
  }
}
