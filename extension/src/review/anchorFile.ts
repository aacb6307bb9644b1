// Each finding's remembered lines and last known place, kept on disk beside the review's
// conversation, so that after a reload a finding still looks for the code it was presented with
// (and is still "code changed" if that code is gone), not for whatever the file holds by then.
// Read as untrusted: validated, capped, and a bad file is moved aside.

import { z } from 'zod';
import type { Logger } from '../../../shared/logger';
import { MAX_FINDINGS } from '../../../shared/protocol';
import { REMEMBERED_LINE_CHARS, REMEMBERED_LINES } from './anchorText';
import { StoredJsonFile } from './storedJsonFile';

const FILE = 'anchors.json';
const StoredAnchor = z.object({
  id: z.string().max(64),
  file: z.string().max(4096),
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  remembered: z.array(z.string().max(REMEMBERED_LINE_CHARS)).max(REMEMBERED_LINES).nullable(),
  stale: z.boolean(),
});
export type StoredAnchor = z.infer<typeof StoredAnchor>;

const Stored = z.object({ version: z.literal(1), anchors: z.array(StoredAnchor).max(MAX_FINDINGS) });

/** Where the anchors of one review are kept; without a directory (tests), nowhere. */
export class AnchorFile {
  private readonly file: StoredJsonFile<z.infer<typeof Stored>>;

  constructor(directory: string | undefined, log: Logger) {
    this.file = new StoredJsonFile({
      directory,
      name: FILE,
      schema: Stored,
      maxBytes: 64 * 1024 * 1024,
      what: 'remembered lines of the findings',
      lost: 'They are saved again with the next change.',
      log,
    });
  }

  /** What an earlier session kept; empty when nothing was, or it was bad (then moved aside). */
  async load(): Promise<StoredAnchor[]> {
    return (await this.file.load())?.anchors ?? [];
  }

  /** Saves the anchors as they are; resolves once they are on disk, rejects if they could not be (writes in a burst share one). */
  save(anchors: readonly StoredAnchor[]): Promise<void> {
    return this.file.save({ version: 1, anchors: [...anchors] });
  }

  /** Resolves when the last save is done; never rejects. */
  idle(): Promise<void> {
    return this.file.idle();
  }
}
