// The review store's directory: current.json plus one history-<revision>.json per earlier review.
// Loads and validates every file (a bad one is moved aside, never fatal) and commits a batch of
// changes atomically: temp files fsynced, renamed into place, then one directory fsync.

import { promises as fs } from 'fs';
import * as path from 'path';
import { syncDirectory, TEMP_PREFIX, writeTemp } from './atomicFile';
import {
  classifyFile,
  CURRENT_FILE,
  describeProblem,
  historyFileName,
  MAX_STORED_FILE_BYTES,
  StoredCurrent,
  StoredReview,
} from './storedState';
import { jsonInSlices } from '../../../shared/jsonInSlices';
import { moveAside, readValidFile } from './validatedFile';

/** An earlier review as listed, without its text. */
export interface HistoryEntry {
  readonly revision: number;
  readonly title?: string;
  readonly updatedAt: string;
  /** Size of the review's markdown in UTF-8 bytes. */
  readonly bytes: number;
}

export interface LoadedFiles {
  readonly current: StoredCurrent | undefined;
  /** The revisions in the history files' names, newest first: not yet validated. */
  readonly historyRevisions: number[];
}

/** One group commit: files to write (history first, current.json last) and history files to delete. */
export interface CommitBatch {
  readonly current?: StoredCurrent;
  readonly add: readonly StoredReview[];
  readonly remove: readonly number[];
}

/** A write that did not reach the disk. The review stays in memory; the next change tries again. */
export class ReviewSaveError extends Error {
  constructor(directory: string, cause: unknown) {
    super(
      `Redline could not save the review to ${directory}: ${describeProblem(cause)}. ` +
        'It is still shown, but a reload may lose it: check that the folder is writable and has free space.',
    );
    this.name = 'ReviewSaveError';
  }
}

export const entryOf = (review: StoredReview): HistoryEntry => ({
  revision: review.revision,
  title: review.title,
  updatedAt: review.updatedAt,
  bytes: Buffer.byteLength(review.markdown, 'utf8'),
});

export class ReviewFiles {
  /** Commits that wrote or deleted at least one file; tests and benchmarks compare it with the number of changes. */
  commits = 0;

  constructor(
    readonly directory: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** Sweeps temp files, moves unknown ones aside and validates current.json; history files are only listed (see validateHistory). */
  async load(): Promise<LoadedFiles> {
    await fs.mkdir(this.directory, { recursive: true });
    let current: StoredCurrent | undefined;
    const historyRevisions: number[] = [];
    for (const name of await fs.readdir(this.directory)) {
      if (name.startsWith(TEMP_PREFIX)) {
        // A write that a crash interrupted before its rename: the file it was replacing is still whole.
        await fs.rm(path.join(this.directory, name), { force: true }).catch(() => undefined);
        continue;
      }
      const kind = classifyFile(name);
      if (kind.kind === 'current') current = await this.readValid(name, StoredCurrent);
      else if (kind.kind === 'history') historyRevisions.push(kind.revision);
      else if (kind.kind === 'unknown') await this.moveAside(name, 'not a file name Redline writes');
    }
    return { current, historyRevisions: historyRevisions.sort((a, b) => b - a) };
  }

  /**
   * Reads and validates each history file, one at a time (each may be tens of MiB), and lists the
   * good ones newest first; bad ones are moved aside. Stops early once `stopped()`. Never throws.
   */
  async validateHistory(revisions: readonly number[], stopped: () => boolean = () => false): Promise<HistoryEntry[]> {
    const entries: HistoryEntry[] = [];
    for (const revision of revisions) {
      if (stopped()) break;
      const review = await this.readHistory(revision);
      if (review) entries.push(entryOf(review));
    }
    return entries;
  }

  /** An earlier review, validated again (the file may have changed since load); undefined when gone or bad. */
  async readHistory(revision: number): Promise<StoredReview | undefined> {
    return this.readValid(historyFileName(revision), StoredReview, (r) => r.revision === revision || `revision ${r.revision} does not match the file name`);
  }

  async commit(batch: CommitBatch): Promise<void> {
    // A review's markdown is escaped a slice per task: JSON.stringify held the thread 40–85 ms at 10 MiB.
    const storedJson = async (value: StoredReview | StoredCurrent) => (await jsonInSlices(value)).join('');
    const writes: Array<{ temp?: string; target: string; data: string }> = [];
    for (const review of batch.add) writes.push({ target: historyFileName(review.revision), data: await storedJson(review) });
    if (batch.current) writes.push({ target: CURRENT_FILE, data: await storedJson(batch.current) });
    for (const write of writes) write.target = path.join(this.directory, write.target);
    if (writes.length === 0 && batch.remove.length === 0) return;
    try {
      await fs.mkdir(this.directory, { recursive: true });
      for (const write of writes) write.temp = await writeTemp(write.target, write.data);
      // History before current.json: a crash in between leaves a duplicate, which load drops, never a gap.
      for (const write of writes) {
        await fs.rename(write.temp!, write.target);
        write.temp = undefined;
      }
      for (const revision of batch.remove) await fs.rm(path.join(this.directory, historyFileName(revision)), { force: true });
      await syncDirectory(this.directory);
      this.commits++;
    } catch (error) {
      await Promise.all(writes.filter((w) => w.temp).map((w) => fs.rm(w.temp!, { force: true }).catch(() => undefined)));
      throw new ReviewSaveError(this.directory, error);
    }
  }

  /** Reads and validates one file. Anything wrong with it moves it aside with one warning; never throws. */
  private readValid<T>(name: string, schema: { parse(value: unknown): T }, check?: (value: T) => true | string): Promise<T | undefined> {
    return readValidFile(path.join(this.directory, name), { schema, check, maxBytes: MAX_STORED_FILE_BYTES, what: 'stored review', warn: this.warn });
  }

  private moveAside(name: string, reason: string): Promise<void> {
    return moveAside(path.join(this.directory, name), reason, { what: 'stored review', warn: this.warn });
  }
}
