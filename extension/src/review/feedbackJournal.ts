// Where a conversation's feedback lives on disk: feedback.jsonl, an append-only journal. Saving an
// item appends its line and fsyncs, so a reply costs O(item), not a rewrite of everything said so
// far. Now and then the file is compacted: rewritten atomically with a header (the next id and the
// finding states) and the newest items that fit a byte budget. Reading forgives what a journal
// must: a torn last line or a bad line is skipped, and an oversized file keeps its newest items.
// Reading and compacting yield the thread between slices, as the file may be long.

import { constants as fsConstants, promises as fs } from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { FeedbackItem, FindingState } from '../../../shared/protocol';
import { syncDirectory, writeAll, writeTemp } from '../../../shared/atomicFile';
import { RecentStates } from './recentStates';
import { MAX_STORED_COUNTER } from './storedState';
import { mib } from '../../../shared/byteSize';
import { TimeSlices } from '../../../shared/threadYield';
import type { Logger } from '../../../shared/logger';

export const JOURNAL_FILE = 'feedback.jsonl';
/** Only this much of the journal's end is read: the newest items, and memory bounded. */
export const MAX_JOURNAL_READ_BYTES = 64 * 1024 * 1024;
/**
 * No line Redline writes comes near this: an item is at most ~100 KiB, and the header's finding
 * states (at most 5,000) a few MiB at the very worst. A longer line is skipped unparsed, since one
 * JSON.parse of it would hold the thread.
 */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;
/** A compaction keeps the newest items that fit in this much. */
const MAX_COMPACTED_BYTES = 32 * 1024 * 1024;
/** Appended bytes past the last compaction that trigger the next one. */
const COMPACT_AFTER_BYTES = 16 * 1024 * 1024;

const StateEntry = z.tuple([z.string().max(200), FindingState]);
const Header = z.object({
  v: z.literal(1),
  next: z.number().int().min(1).max(MAX_STORED_COUNTER),
  // Checked entry by entry below: one bad state must not cost the others, or the next id.
  states: z.array(z.unknown()),
});
const ItemLine = z.object({
  item: FeedbackItem.refine(
    (item) => /^\d{1,13}$/.test(item.id) && Number(item.id) <= MAX_STORED_COUNTER,
    'id is not a count',
  ),
});

export interface JournalContents {
  readonly next: number;
  readonly items: FeedbackItem[];
  readonly states: Array<[string, FindingState]>;
}

/** Where a journal stands in its file when it is made. */
interface JournalPosition {
  readonly file: string;
  /** Bytes appended since the file was last compacted (or read). */
  readonly appended: number;
  /** The file ends in a line a crash cut short: the next append starts a new line first. */
  readonly torn: boolean;
  /** Where this journal's reading ended, and the file it read: what lies past it another window appended. */
  readonly seen: { size: number; ino: number };
}

export class FeedbackJournal {
  readonly file: string;
  private appended: number;
  private torn: boolean;
  private seen: { size: number; ino: number };

  private constructor(position: JournalPosition) {
    this.file = position.file;
    this.appended = position.appended;
    this.torn = position.torn;
    this.seen = position.seen;
  }

  /** The journal's contents, or undefined when there is none; skipped lines are logged as warnings. */
  static async read(
    directory: string,
    log: Logger,
  ): Promise<{ journal: FeedbackJournal; contents: JournalContents | undefined }> {
    const file = path.join(directory, JOURNAL_FILE);
    const { data, size, ino } = await readTail(file, log);
    // A file larger than a compaction leaves (one an earlier version, or a long session, grew) is
    // compacted at the first append, so that it is not read from its end again and again.
    const appended = Math.max(0, size - MAX_COMPACTED_BYTES);
    const journal = new FeedbackJournal({ file, appended, torn: endsTorn(data), seen: { size, ino } });
    return { journal, contents: data === undefined ? undefined : await parseJournal(data, file, log) };
  }

  /**
   * What another window on the same folder wrote since this journal last read or wrote: the lines
   * it appended, or (after it compacted) the whole file again. Called under the folder's lock.
   */
  async catchUp(log: Logger): Promise<JournalContents | undefined> {
    const now = await fs.stat(this.file).catch(() => undefined);
    if (!now || (now.ino === this.seen.ino && now.size === this.seen.size)) return undefined;
    const from = now.ino === this.seen.ino && now.size > this.seen.size ? this.seen.size : 0;
    const { data, size, ino } = await readTail(this.file, log, from);
    this.seen = { size, ino };
    this.torn = endsTorn(data);
    return data === undefined ? undefined : parseJournal(data, this.file, log);
  }

  /**
   * Appends the items and fsyncs; compacts instead when due. On failure the file is as it was.
   * `beforeCommit` is called right before the write that appends, or the rename that compacts.
   */
  async append(
    items: readonly FeedbackItem[],
    snapshot: () => JournalContents,
    beforeCommit: () => void = () => undefined,
  ): Promise<void> {
    if (items.length === 0) return;
    if (this.appended > COMPACT_AFTER_BYTES) return this.compact(snapshot(), beforeCommit);
    const data = Buffer.from(
      (this.torn ? '\n' : '') + items.map((item) => `${JSON.stringify({ item })}\n`).join(''),
      'utf8',
    );
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const handle = await fs.open(this.file, fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT, 0o600);
    const { size } = await handle.stat();
    try {
      beforeCommit();
      // Every byte, or the append fails: a short write fsynced as it is would be a torn item reported saved.
      await writeAll(handle, data);
      await handle.sync();
    } catch (error) {
      // A half-written batch would come back at the next load although its callers were told it failed.
      await handle.truncate(size).catch(() => undefined);
      throw error;
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (size === 0) await syncDirectory(path.dirname(this.file));
    this.appended += data.length;
    this.torn = false;
    this.seen = { size: size + data.length, ino: (await fs.stat(this.file)).ino };
  }

  /** Rewrites the file atomically with the newest items that fit MAX_COMPACTED_BYTES. */
  async compact(contents: JournalContents, beforeCommit: () => void = () => undefined): Promise<void> {
    const lines: string[] = [];
    let bytes = 0;
    const slices = new TimeSlices();
    for (let i = contents.items.length - 1; i >= 0; i--) {
      await slices.yieldIfDue();
      const line = `${JSON.stringify({ item: contents.items[i] })}\n`;
      const lineBytes = Buffer.byteLength(line);
      if (bytes + lineBytes > MAX_COMPACTED_BYTES) break;
      bytes += lineBytes;
      lines.push(line);
    }
    const header = `${JSON.stringify({ v: 1, next: contents.next, states: contents.states })}\n`;
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const temp = await writeTemp(this.file, [header, ...lines.reverse()]);
    const { ino } = await fs.stat(temp);
    try {
      beforeCommit();
      await fs.rename(temp, this.file);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncDirectory(path.dirname(this.file));
    this.appended = 0;
    this.torn = false;
    this.seen = { size: Buffer.byteLength(header) + bytes, ino };
  }
}

/**
 * The file's bytes from `from`, or its last MAX_JOURNAL_READ_BYTES from the first whole line, its
 * size and inode; no bytes when it does not exist or cannot be read.
 */
async function readTail(file: string, log: Logger, from = 0): Promise<{ data?: Buffer; size: number; ino: number }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      log.warn('Redline could not read the stored feedback; it carries on without it.', { file, error });
    }
    return { size: 0, ino: -1 };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      log.warn('Redline did not read the stored feedback: it is not a regular file.', { file });
      return { size: 0, ino: -1 };
    }
    const start = Math.max(from, stats.size - MAX_JOURNAL_READ_BYTES);
    const buffer = Buffer.alloc(stats.size - start);
    await handle.read(buffer, 0, buffer.length, start);
    if (start === from) return { data: buffer, size: stats.size, ino: stats.ino };
    log.warn(
      `The stored feedback is ${mib(stats.size, 0)} MiB; Redline read its newest ${mib(MAX_JOURNAL_READ_BYTES, 0)} MiB.`,
      {
        file,
      },
    );
    const firstWhole = buffer.indexOf(0x0a) + 1;
    return { data: buffer.subarray(firstWhole), size: stats.size, ino: stats.ino };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** An item's line, not the header: the header is tried only on lines that are not. */
function isItemLine(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'item' in value;
}

/** Whether the bytes end in a line a crash cut short. */
function endsTorn(data: Buffer | undefined): boolean {
  return data !== undefined && data.length > 0 && data[data.length - 1] !== NEWLINE;
}

/** The journal's lines, read a slice at a time; each line is decoded on its own, never the whole file at once. */
async function parseJournal(data: Buffer, file: string, log: Logger): Promise<JournalContents> {
  let next = 1;
  const states = new RecentStates();
  const items: FeedbackItem[] = [];
  let skipped = 0;
  const slices = new TimeSlices();
  for (let start = 0; start < data.length;) {
    await slices.yieldIfDue();
    const newline = data.indexOf(NEWLINE, start);
    const end = newline === -1 ? data.length : newline;
    const length = end - start;
    const lineStart = start;
    start = end + 1;
    if (length === 0) continue;
    if (length > MAX_LINE_BYTES) {
      skipped++;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8', lineStart, end));
    } catch {
      skipped++;
      continue;
    }
    const header = isItemLine(value) ? undefined : Header.safeParse(value);
    if (header?.success) {
      next = Math.max(next, header.data.next);
      for (const entry of header.data.states) {
        await slices.yieldIfDue();
        const valid = StateEntry.safeParse(entry);
        if (valid.success) states.set(valid.data[0], valid.data[1]);
        else skipped++;
      }
      continue;
    }
    const parsed = ItemLine.safeParse(value);
    const item = parsed.success ? parsed.data.item : undefined;
    // Ids only grow; one that does not is not a line this journal appended in order.
    if (item === undefined || (items.length > 0 && Number(item.id) <= Number(items[items.length - 1].id))) {
      skipped++;
      continue;
    }
    items.push(item);
    next = Math.max(next, Number(item.id) + 1);
    if (item.kind === 'state' && item.findingId !== undefined && item.state !== undefined)
      states.set(item.findingId, item.state);
  }
  if (skipped > 0)
    log.warn(
      `Redline skipped ${skipped} unreadable line(s) of the stored feedback (a write a crash cut short, or an edit).`,
      {
        file,
      },
    );
  return { next, items, states: states.entries() };
}
