// Reading a file Redline wrote earlier. Stored state is untrusted (a crash, a sync tool or a hand
// edit may have touched it): the file is size-checked, parsed and validated, and a bad one is moved
// aside with one warning, so that it never stops activation and is never read again.

import { constants as fsConstants, promises as fs } from 'fs';
import * as path from 'path';
import { describeProblem } from './storedState';
import { mib } from '../../../shared/byteSize';
import type { Logger } from '../../../shared/logger';

export interface ValidatedRead<T> {
  readonly schema: { parse(value: unknown): T };
  /** Larger files are refused unread. */
  readonly maxBytes: number;
  /** What the warning calls the file, e.g. "stored review". */
  readonly what: string;
  readonly log: Logger;
  /** A check beyond the schema: true, or what is wrong. */
  readonly check?: (value: T) => true | string;
}

/** The file's valid content; undefined when it is missing or was bad (and is now moved aside). Never throws. */
export async function readValidFile<T>(file: string, read: ValidatedRead<T>): Promise<T | undefined> {
  try {
    const data = await readRegularFile(file, read.maxBytes);
    if (!data) return undefined;
    const value = read.schema.parse(JSON.parse(data.toString('utf8')));
    const verdict = read.check ? read.check(value) : true;
    if (verdict !== true) throw new Error(verdict);
    return value;
  } catch (error) {
    await moveAside(file, describeProblem(error), read);
    return undefined;
  }
}

/** Renames a bad file to `<name>.corrupt-<time>` beside it, and says so once. */
export async function moveAside(
  file: string,
  reason: string,
  { what, log }: Pick<ValidatedRead<unknown>, 'what' | 'log'>,
): Promise<void> {
  const aside = `${path.basename(file)}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await fs.rename(file, path.join(path.dirname(file), aside));
    log.warn(`Redline could not read the ${what}; it moved it aside and carries on without it.`, {
      file,
      reason,
      aside,
    });
  } catch (error) {
    log.warn(`Redline could not read the ${what}, nor move it aside; it carries on without it.`, {
      file,
      reason,
      error: describeProblem(error),
    });
  }
}

/**
 * The file's bytes, at most `limit` (or all of it, refused past `limit`), or undefined if it is
 * gone. Opened non-blocking, so that a FIFO put in its place cannot hang the open; size and type
 * come from the open handle, so the file checked is the file read.
 */
export async function readRegularFile(file: string, limit: number, prefixOnly = false): Promise<Buffer | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error('not a regular file');
    if (!prefixOnly && stats.size > limit)
      throw new Error(`${mib(stats.size, 0)} MiB is larger than any such file Redline writes`);
    const buffer = Buffer.alloc(Math.min(stats.size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
