// What a file is and how many lines it has, learnt with fs/promises so a review's references never
// block the extension host. Line counts are kept across renders, keyed by the file's identity.

import { promises as fsp, type Stats } from 'fs';

export type FileFacts =
  | { kind: 'file'; lineCount: number }
  | { kind: 'folder' }
  | { kind: 'missing' }
  | { kind: 'unreadable'; why: string }
  /** The render's I/O budget ran out before this file was looked at. */
  | { kind: 'unchecked' };

/** Counting the lines of a bigger file costs more than it tells; its line numbers are taken on trust. */
export const MAX_COUNTED_BYTES = 50 * 1024 * 1024;
const READ_CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;
/** About 200 bytes an entry: 20,000 line counts are a few MiB, and more files than any review names. */
const CACHED_COUNTS = 20_000;

/**
 * One render's allowance. 2,000 files covers the largest real reviews (a few hundred distinct files)
 * with room for every root to be tried; 64 MiB of line counting is well under a second from a warm
 * disk; 1.5 s keeps the panel responsive on a cold or network disk. Past it, references are "not checked".
 */
export interface IoBudget {
  files: number;
  bytes: number;
  deadline: number;
}

export function defaultBudget(now = Date.now()): IoBudget {
  return { files: 2_000, bytes: 64 * 1024 * 1024, deadline: now + 1_500 };
}

/** What a file's line count is cached under: the same file by any spelling, unchanged since it was counted. */
function identity(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

/** Line counts by file identity, least recently used first. One per window, shared by every render. */
export class LineCountCache {
  private readonly counts = new Map<string, number>();
  /** How many files were read to count their lines: what the cache saves, for tests and the bench. */
  reads = 0;

  constructor(private readonly capacity = CACHED_COUNTS) {}

  get(key: string): number | undefined {
    const count = this.counts.get(key);
    if (count !== undefined) {
      this.counts.delete(key);
      this.counts.set(key, count);
    }
    return count;
  }

  set(key: string, count: number): void {
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > this.capacity) this.counts.delete(this.counts.keys().next().value!);
  }

  get size(): number {
    return this.counts.size;
  }
}

/** One render's view of the disk: each spelling statted once, each file identity counted once, within the budget. */
export class FileFactsLookup {
  private readonly byPath = new Map<string, Promise<FileFacts>>();
  private readonly counting = new Map<string, Promise<number>>();
  /** How many stat calls this render made: at most one per distinct absolute path. */
  stats = 0;

  constructor(
    private readonly cache: LineCountCache,
    private readonly budget: IoBudget,
  ) {}

  factsAbout(absolutePath: string): Promise<FileFacts> {
    let facts = this.byPath.get(absolutePath);
    if (facts === undefined) {
      facts = this.readFacts(absolutePath);
      this.byPath.set(absolutePath, facts);
    }
    return facts;
  }

  private overBudget(): boolean {
    return this.budget.files <= 0 || Date.now() > this.budget.deadline;
  }

  /** Never rejects: every failure becomes "missing" or "unreadable" with a reason a person can act on. */
  private async readFacts(absolutePath: string): Promise<FileFacts> {
    if (this.overBudget()) return { kind: 'unchecked' };
    this.budget.files--;
    this.stats++;
    let stats: Stats;
    try {
      stats = await fsp.stat(absolutePath);
    } catch (error) {
      // ENOTDIR: a component of the path is a file (`src/a.ts/b.ts`), so there is no such file.
      const code = errorCode(error);
      return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : { kind: 'unreadable', why: describeError(error) };
    }
    if (stats.isDirectory()) return { kind: 'folder' };
    // Reading a FIFO or a device (`/dev/zero`) to count lines would block or never end.
    if (!stats.isFile()) return { kind: 'unreadable', why: 'it is not a regular file' };
    if (stats.size > MAX_COUNTED_BYTES) return { kind: 'file', lineCount: Number.POSITIVE_INFINITY };
    if (stats.size === 0) return { kind: 'file', lineCount: 0 };
    const key = identity(stats);
    const cached = this.cache.get(key);
    if (cached !== undefined) return { kind: 'file', lineCount: cached };
    let pending = this.counting.get(key);
    if (pending === undefined) {
      if (stats.size > this.budget.bytes || Date.now() > this.budget.deadline) return { kind: 'unchecked' };
      this.budget.bytes -= stats.size;
      pending = this.count(absolutePath, key);
      this.counting.set(key, pending);
    }
    try {
      return { kind: 'file', lineCount: await pending };
    } catch (error) {
      return { kind: 'unreadable', why: describeError(error) };
    }
  }

  private async count(absolutePath: string, key: string): Promise<number> {
    this.cache.reads++;
    const lineCount = await countLines(absolutePath);
    this.cache.set(key, lineCount);
    return lineCount;
  }
}

/** Lines as a person counts them: a last line without a newline counts, an empty file has none. */
async function countLines(absolutePath: string): Promise<number> {
  const handle = await fsp.open(absolutePath, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let newlines = 0;
    let lastByte = NEWLINE;
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      // Stop at the cap even if the file grew after stat: the answer is then only a lower bound.
      if (bytesRead === 0 || total > MAX_COUNTED_BYTES) break;
      total += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) newlines++;
      lastByte = chunk[bytesRead - 1];
    }
    return lastByte === NEWLINE ? newlines : newlines + 1;
  } finally {
    await handle.close();
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function describeError(error: unknown): string {
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'EIO':
      return 'an I/O error';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
