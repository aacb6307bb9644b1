// What a file is and how many lines it has, learnt with fs/promises so a review's references never
// block the extension host. Line counts are kept across renders, keyed by the file's identity.
// A lookup confined to roots judges containment on the real path first, so a link in the
// workspace that leads elsewhere tells nothing about where it leads.

import { promises as fsp, type Stats } from 'fs';
import * as path from 'path';
import { isWithin } from '../../../shared/pathSafety';
import { realPlace, type RealPlace } from '../../../shared/realpath';

export type FileFacts =
  | { kind: 'file'; lineCount: number }
  | { kind: 'folder' }
  | { kind: 'missing' }
  | { kind: 'unreadable'; why: string }
  /** Inside the roots as spelled, but really elsewhere (through a link): not looked at. */
  | { kind: 'outside' }
  /** The render's I/O budget ran out before this file was looked at. */
  | { kind: 'unchecked' };

/** Counting the lines of a bigger file costs more than it tells; its line numbers are taken on trust. */
export const MAX_COUNTED_BYTES = 50 * 1024 * 1024;
const READ_CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;
/** A few MiB at most, and more files than any review names. */
const CACHED_COUNTS = 20_000;

/**
 * One render's allowance: files for the largest real reviews with room for every root to be tried,
 * bytes of line counting that a warm disk reads quickly, and a deadline that keeps the panel
 * responsive on a cold or network disk. Past it, references are "not checked".
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

/** A file that was found, and what stat says of it. */
interface Found {
  readonly absolutePath: string;
  readonly stats: Stats;
}

/**
 * Where a lookup may look: the real paths of the roots (each path is resolved and must lie in one),
 * or undefined for anywhere (only after the user has agreed to open a file outside).
 */
export type RealRoots = readonly string[] | undefined;

/** One render's view of the disk: each spelling statted once, each file identity counted once, within the budget. */
export class FileFactsLookup {
  /** By the roots it was asked within (the same array for one resolver), then by spelling. */
  private readonly byPath = new Map<RealRoots, Map<string, Promise<FileFacts>>>();
  private readonly counting = new Map<string, Promise<number>>();
  /** Folders' real paths, for this render: a review names many files in few folders. */
  private readonly realFolders = new Map<string, Promise<RealPlace>>();
  /** How many paths this render stat-ed (or lstat-ed): at most one per distinct absolute path. */
  stats = 0;

  constructor(
    private readonly cache: LineCountCache,
    private readonly budget: IoBudget,
  ) {}

  factsAbout(absolutePath: string, within?: RealRoots): Promise<FileFacts> {
    let known = this.byPath.get(within);
    if (known === undefined) this.byPath.set(within, (known = new Map()));
    let facts = known.get(absolutePath);
    if (facts === undefined) {
      facts = this.readFacts(absolutePath, within);
      known.set(absolutePath, facts);
    }
    return facts;
  }

  /** `ms` went on other work between lookups (a review rendered in parts): the time budget does not count it. */
  idle(ms: number): void {
    this.budget.deadline += ms;
  }

  private overBudget(): boolean {
    return this.budget.files <= 0 || Date.now() > this.budget.deadline;
  }

  /** Never rejects: every failure becomes "missing" or "unreadable" with a reason a person can act on. */
  private async readFacts(spelled: string, within: RealRoots): Promise<FileFacts> {
    if (this.overBudget()) return { kind: 'unchecked' };
    this.budget.files--;
    const found = within === undefined ? await this.statAnywhere(spelled) : await this.statWithin(spelled, within);
    if (!('stats' in found)) return found;
    const { absolutePath, stats } = found;
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

  private async statAnywhere(absolutePath: string): Promise<Found | FileFacts> {
    this.stats++;
    try {
      return { absolutePath, stats: await fsp.stat(absolutePath) };
    } catch (error) {
      return failed(error);
    }
  }

  /**
   * The file as it really is, if that is inside `within`. Its folder's real path is learnt once per
   * folder and render, and the file itself is lstat-ed in place of the stat it needed anyway; only
   * a file that is itself a link costs more. What is counted is the real file, so a link swapped
   * after this check cannot lead elsewhere.
   */
  private async statWithin(spelled: string, within: readonly string[]): Promise<Found | FileFacts> {
    const inside = (real: string) => within.some((root) => isWithin(root, real, path));
    const folder = await this.realFolder(path.dirname(spelled));
    const joined = path.join(folder.real, path.basename(spelled));
    // A missing file answers as a present one would: outside, whether or not it exists there.
    if ('failure' in folder) return inside(joined) ? failed(folder.failure) : { kind: 'outside' };
    this.stats++;
    let stats: Stats;
    try {
      stats = await fsp.lstat(joined);
    } catch (error) {
      return inside(joined) ? failed(error) : { kind: 'outside' };
    }
    if (!stats.isSymbolicLink()) return inside(joined) ? { absolutePath: joined, stats } : { kind: 'outside' };
    const place = await realPlace(joined);
    if (!inside(place.real)) return { kind: 'outside' };
    if ('failure' in place) return failed(place.failure);
    try {
      return { absolutePath: place.real, stats: await fsp.stat(place.real) };
    } catch (error) {
      return failed(error);
    }
  }

  private realFolder(folder: string): Promise<RealPlace> {
    let place = this.realFolders.get(folder);
    if (place === undefined) {
      place = realPlace(folder);
      this.realFolders.set(folder, place);
    }
    return place;
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

/** ENOTDIR: a component of the path is a file (`src/a.ts/b.ts`), so there is no such file. */
function failed(error: unknown): FileFacts {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR'
    ? { kind: 'missing' }
    : { kind: 'unreadable', why: describeError(error) };
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
