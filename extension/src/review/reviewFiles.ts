// The review store's directory: one file per review (review-<revision>-<writer>.md, written once,
// never changed) and current.json, which names the one on screen. Earlier reviews are simply the
// other files. Two windows may share the directory (see folderLock.ts): each commit runs under
// the folder's lock and first sees what the other wrote, and no two stores write the same name,
// so a review one window wrote is never overwritten by the other.
//
// Every file is untrusted when read: a bad one is moved aside with a warning, never fatal.

import { yieldThread } from '../../../shared/threadYield';
import { promises as fs } from 'fs';
import * as path from 'path';
import { utf8Bytes } from '../../../shared/byteSize';
import { MAX_REVIEW_BYTES } from '../../../shared/protocol';
import { syncDirectory, TEMP_PREFIX, writeTemp } from '../../../shared/atomicFile';
import type { Logger } from '../../../shared/logger';
import { withFolderLock, type FolderLockHold } from './folderLock';
import {
  classifyFile,
  CURRENT_FILE,
  describeProblem,
  MAX_STORED_FILE_BYTES,
  ReviewHead,
  StoredPointer,
  StoredReview,
} from './storedState';
import { moveAside, readRegularFile, readValidFile } from './validatedFile';

/** An earlier review as listed, without its text. */
export interface HistoryEntry {
  readonly revision: number;
  readonly title?: string;
  readonly updatedAt: string;
  /** Size of the review's markdown in UTF-8 bytes. */
  readonly bytes: number;
}

/** What the directory holds now: current.json and the names of the review files, newest first. */
export interface DiskState {
  readonly pointer: StoredPointer | undefined;
  readonly names: readonly string[];
}

/** One commit, decided under the lock: review files to write, then current.json, then files to delete. */
export interface CommitPlan {
  readonly write: ReadonlyArray<{ readonly name: string; readonly review: StoredReview }>;
  readonly pointer?: { readonly revision: number; readonly current: string | null };
  readonly remove: readonly string[];
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

export const entryOf = (review: Pick<StoredReview, 'revision' | 'title' | 'updatedAt' | 'markdown'>): HistoryEntry => ({
  revision: review.revision,
  title: review.title,
  updatedAt: review.updatedAt,
  bytes: utf8Bytes(review.markdown),
});

/** The first line of a review file is read alone when the history is listed; it is never longer than this. */
const MAX_HEAD_BYTES = 16 * 1024;

export class ReviewFiles {
  /** Commits that wrote or deleted at least one file; tests and benchmarks compare it with the number of changes. */
  commits = 0;

  constructor(
    readonly directory: string,
    private readonly log: Logger,
  ) {}

  /** Sweeps temp files a crash left, moves unknown ones aside, and reads current.json. */
  load(): Promise<DiskState> {
    return withFolderLock(this.directory, () => this.scan(true));
  }

  /**
   * Runs `plan` under the folder's lock with the directory as it is now, then carries out what it
   * returns: new files fsynced and renamed into place, current.json last, then the deletions.
   */
  async commit(plan: (disk: DiskState) => Promise<CommitPlan>): Promise<void> {
    try {
      await withFolderLock(this.directory, async (hold) => this.apply(await plan(await this.scan(false)), hold));
    } catch (error) {
      throw error instanceof ReviewSaveError ? error : new ReviewSaveError(this.directory, error);
    }
  }

  /** A whole review, validated (the file may have changed since it was listed); undefined when gone or bad. */
  async readReview(name: string): Promise<StoredReview | undefined> {
    const expected = classifyFile(name);
    if (expected.kind !== 'review') return undefined;
    const matches = (review: StoredReview) =>
      review.revision === expected.revision || `revision ${review.revision} does not match the file name`;
    if (name.endsWith('.json')) return this.readValid(name, StoredReview, matches);
    try {
      const data = await readRegularFile(path.join(this.directory, name), MAX_STORED_FILE_BYTES);
      if (!data) return undefined;
      const review = await parseReviewFile(data);
      const verdict = matches(review);
      if (verdict !== true) throw new Error(verdict);
      return review;
    } catch (error) {
      await this.moveAside(name, describeProblem(error));
      return undefined;
    }
  }

  /** What the history lists for a review file: its first line only (all of it for Redline 0.1's JSON files). */
  async readEntry(name: string): Promise<HistoryEntry | undefined> {
    if (name.endsWith('.json')) {
      const review = await this.readReview(name);
      return review && entryOf(review);
    }
    try {
      const head = await readRegularFile(path.join(this.directory, name), MAX_HEAD_BYTES, true);
      if (!head) return undefined;
      const end = head.indexOf(0x0a);
      if (end < 0) throw new Error('its first line is too long');
      const { revision, title, updatedAt, bytes } = ReviewHead.parse(
        JSON.parse(head.subarray(0, end).toString('utf8')),
      );
      if (classifyFile(name).kind !== 'review' || !name.startsWith(`review-${revision}-`))
        throw new Error(`revision ${revision} does not match the file name`);
      return { revision, title, updatedAt, bytes };
    } catch (error) {
      await this.moveAside(name, describeProblem(error));
      return undefined;
    }
  }

  private async scan(sweep: boolean): Promise<DiskState> {
    await fs.mkdir(this.directory, { recursive: true });
    let pointer: StoredPointer | undefined;
    const names: Array<{ name: string; revision: number }> = [];
    for (const name of await fs.readdir(this.directory)) {
      if (name.startsWith(TEMP_PREFIX)) {
        // A write that a crash interrupted before its rename: the file it was replacing is still whole.
        if (sweep) await fs.rm(path.join(this.directory, name), { force: true }).catch(() => undefined);
        continue;
      }
      const kind = classifyFile(name);
      if (kind.kind === 'current') pointer = await this.readValid(name, StoredPointer);
      else if (kind.kind === 'review') names.push({ name, revision: kind.revision });
      else if (kind.kind === 'unknown') await this.moveAside(name, 'not a file name Redline writes');
    }
    return { pointer, names: names.sort((a, b) => b.revision - a.revision).map(({ name }) => name) };
  }

  private async apply(plan: CommitPlan, hold: FolderLockHold): Promise<void> {
    if (plan.write.length === 0 && !plan.pointer && plan.remove.length === 0) return;
    const target = (name: string) => path.join(this.directory, name);
    const temps: string[] = [];
    try {
      // Written and fsynced side by side: the disk flushes them together. Only the renames keep an order.
      const files = [
        ...plan.write.map(({ name, review }) => ({ target: target(name), data: serializeReview(review) })),
        ...(plan.pointer
          ? [{ target: target(CURRENT_FILE), data: [JSON.stringify({ version: 3, ...plan.pointer })] }]
          : []),
      ];
      const written = await Promise.allSettled(files.map((file) => writeTemp(file.target, file.data)));
      const writes = written.flatMap((outcome, index) =>
        outcome.status === 'fulfilled' ? [{ temp: outcome.value, target: files[index].target }] : [],
      );
      temps.push(...writes.map((write) => write.temp));
      const failed = written.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      // Reviews before current.json: a crash in between leaves an extra earlier review, never a pointer to nothing.
      for (const write of writes) {
        hold.assertHeld();
        await fs.rename(write.temp, write.target);
        temps.splice(temps.indexOf(write.temp), 1);
      }
      hold.assertHeld();
      for (const name of plan.remove) await fs.rm(target(name), { force: true });
      await syncDirectory(this.directory);
      this.commits++;
    } catch (error) {
      await Promise.all(temps.map((temp) => fs.rm(temp, { force: true }).catch(() => undefined)));
      throw error;
    }
  }

  /** Reads and validates one JSON file. Anything wrong with it moves it aside with one warning; never throws. */
  private readValid<T>(
    name: string,
    schema: { parse(value: unknown): T },
    check?: (value: T) => true | string,
  ): Promise<T | undefined> {
    return readValidFile(path.join(this.directory, name), {
      schema,
      check,
      maxBytes: MAX_STORED_FILE_BYTES,
      what: 'stored review',
      log: this.log,
    });
  }

  private moveAside(name: string, reason: string): Promise<void> {
    return moveAside(path.join(this.directory, name), reason, { what: 'stored review', log: this.log });
  }
}

/** How much of a review file is encoded on the window's thread at once. */
const PART_CHARS = 512 * 1024;

/**
 * Head line, sections line, then the markdown as it is, in parts that writeTemp encodes and writes
 * one at a time, so that a large review does not hold the thread while it is encoded.
 */
function* serializeReview(review: StoredReview): Generator<string> {
  const { revision, title, cwd, assistant, updatedAt, markdown, sections } = review;
  const head: ReviewHead = { v: 3, revision, title, cwd, assistant, updatedAt, bytes: utf8Bytes(markdown) };
  yield `${JSON.stringify(head)}\n${JSON.stringify(sections ?? null)}\n`;
  yield* partsOf(markdown, PART_CHARS);
}

/** `text` in parts of about `chars`, never cutting a surrogate pair (each half alone would be encoded as U+FFFD). */
export function* partsOf(text: string, chars: number): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + chars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * A review file, read in steps with a turn for the event loop between them: a large review's
 * sections and markdown are each a long decode on the window's thread.
 */
async function parseReviewFile(data: Buffer): Promise<StoredReview> {
  const headEnd = data.indexOf(0x0a);
  const sectionsEnd = headEnd < 0 ? -1 : data.indexOf(0x0a, headEnd + 1);
  if (headEnd < 0 || headEnd > MAX_HEAD_BYTES || sectionsEnd < 0) throw new Error('not a review file');
  const head = ReviewHead.parse(JSON.parse(data.subarray(0, headEnd).toString('utf8')));
  const body = data.subarray(sectionsEnd + 1);
  if (body.length > MAX_REVIEW_BYTES) throw new Error('markdown is larger than the review limit');
  if (body.length !== head.bytes)
    throw new Error(`the markdown is ${body.length} bytes, not the ${head.bytes} its first line says`);
  // Checked once, with the rest, by StoredReview: null when the review was stored without them.
  const sections: unknown = JSON.parse(data.subarray(headEnd + 1, sectionsEnd).toString('utf8'));
  await yieldThread();
  const markdown = body.toString('utf8');
  await yieldThread();
  const { v: _version, bytes: _bytes, ...meta } = head;
  return StoredReview.parse({ ...meta, markdown, sections: sections ?? undefined });
}
