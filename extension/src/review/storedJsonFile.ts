// One JSON file of the store kept beside a review's conversation (the findings' anchors, the
// findings found): read as untrusted, written crash-safely under the folder's lock like every other
// file of the folder, so that a second window on the same folder never interleaves with this one.
// A burst of saves shares one write.

import { promises as fs } from 'fs';
import * as path from 'path';
import { replaceFile } from '../../../shared/atomicFile';
import type { Logger } from '../../../shared/logger';
import { withFolderLock } from './folderLock';
import { GroupCommit } from './groupCommit';
import { describeProblem } from './storedState';
import { readValidFile } from './validatedFile';

export interface StoredJsonFileOptions<T> {
  /** The folder it is kept in (the one whose lock is taken); without one (tests), nowhere. */
  readonly directory: string | undefined;
  readonly name: string;
  readonly schema: { parse(value: unknown): T };
  /** A larger file is refused when read; a larger value is not written, and the file is removed. */
  readonly maxBytes: number;
  /** What the warnings call it, e.g. "kept findings of the review". */
  readonly what: string;
  /** What a failed save costs, told with its warning. */
  readonly lost: string;
  readonly log: Logger;
}

export class StoredJsonFile<T> {
  private latest: T | undefined;
  private readonly commit = new GroupCommit(() => this.write());

  constructor(private readonly options: StoredJsonFileOptions<T>) {}

  /** What was kept; undefined when nothing was, or it was bad (then moved aside, with a warning). Never throws. */
  async load(): Promise<T | undefined> {
    const { directory, name, schema, maxBytes, what, log } = this.options;
    if (!directory) return undefined;
    // Not under the lock: a write renames a whole file into place, so a read sees one file or the other.
    return readValidFile(path.join(directory, name), { schema, maxBytes, what, log });
  }

  /**
   * Keeps `value`. Resolves once it is on disk; rejects with the write's error (warned about once,
   * whoever awaits) when it could not be kept. Saves in a burst share one write of the latest value.
   */
  save(value: T): Promise<void> {
    this.latest = value;
    return this.commit.request();
  }

  /** Resolves when the last save is done; never rejects. */
  idle(): Promise<void> {
    return this.commit.idle();
  }

  private async write(): Promise<void> {
    const { directory, name, maxBytes, what, lost, log } = this.options;
    if (!directory || this.latest === undefined) return;
    const target = path.join(directory, name);
    try {
      const data = JSON.stringify(this.latest);
      await withFolderLock(directory, async (hold) => {
        // Too large to be read back: as good as none, and an older file would no longer be true.
        if (Buffer.byteLength(data) > maxBytes) {
          hold.assertHeld();
          await fs.rm(target, { force: true });
        } else await replaceFile(target, data, { beforeRename: () => hold.assertHeld() });
      });
    } catch (error) {
      log.warn(`Redline could not save the ${what}. ${lost}`, { file: target, error: describeProblem(error) });
      throw error;
    }
  }
}
