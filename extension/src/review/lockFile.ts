// What a lock file says and how it looks right now, and whether the one who wrote it is gone.
// Used for the folder's lock and for the gates that end a stale one (folderLock.ts explains both).
// Everything read here is untrusted: another process may be writing, or have died writing.

import { createHash, randomBytes } from 'crypto';
import { promises as fs, type BigIntStats } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isOwnProcessAlive } from '../../../shared/privateDirectory';
import { readRegularFile } from './validatedFile';

export const LOCK_FILE = '.lock';
/** A gate's name: the lock file's, then the incarnation it ends. Starts with LOCK_FILE, so the store leaves it alone. */
export const GATE_PREFIX = `${LOCK_FILE}.end-`;
/** A token that can name a gate; any other incarnation is named by a digest. */
const TOKEN = /^[0-9a-f]{16,64}$/;
const MAX_LOCK_BYTES = 4096;

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** New for every lock file written: no two files ever carry the same one. */
  readonly token: string;
}

export function newHolder(): LockHolder {
  return { pid: process.pid, host: os.hostname(), token: randomBytes(8).toString('hex') };
}

/** A lock file as read at one moment. */
export interface LockLook {
  /** Names this file among all that will ever have its name: its holder's token, or for unreadable content a digest of the file. */
  readonly incarnation: string;
  /** The inode (device and number): the same only while the file is the same file. */
  readonly fileId: string;
  /** Everything a refresh changes; two equal looks mean nothing happened to the file in between. */
  readonly look: string;
  readonly holder?: LockHolder;
  readonly mtimeMs: number;
}

/** The gate that whoever ends `incarnation` (its holder releasing, or a waiter taking over) holds meanwhile. */
export function gateFor(lockFile: string, incarnation: string): string {
  return path.join(path.dirname(lockFile), `${GATE_PREFIX}${incarnation}`);
}

/** How the lock file looks now; undefined when there is none. */
export async function readLock(file: string): Promise<LockLook | undefined> {
  let stats: BigIntStats;
  try {
    stats = await fs.lstat(file, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A symlink, a directory or a FIFO put there reads as empty: unreadable, and judged by its age.
  const content = stats.isFile()
    ? ((await readRegularFile(file, MAX_LOCK_BYTES).catch(() => undefined)) ?? Buffer.alloc(0))
    : Buffer.alloc(0);
  const fileId = `${stats.dev}:${stats.ino}`;
  const holder = parseHolder(content);
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 32);
  return {
    incarnation:
      holder && TOKEN.test(holder.token)
        ? holder.token
        : `x${createHash('sha256').update(`${fileId}:${digest}`).digest('hex').slice(0, 32)}`,
    fileId,
    look: `${fileId}:${stats.size}:${stats.mtimeNs}:${digest}`,
    holder,
    mtimeMs: Number(stats.mtimeMs),
  };
}

/**
 * Creates `file` only if there is none (O_EXCL) and writes the holder into it; its inode, or
 * undefined when the file exists already.
 */
export async function createLock(file: string, holder: LockHolder): Promise<string | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(holder), 'utf8');
    const { dev, ino } = await handle.stat({ bigint: true });
    await handle.close();
    return `${dev}:${ino}`;
  } catch (error) {
    await handle.close().catch(() => undefined);
    // Ours and just made: no one judges a file this fresh stale, so no one else has taken it yet.
    await fs.rm(file, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Removes a gate this process wrote, unless it was taken from us meanwhile. */
export async function removeGate(gate: string, token: string): Promise<void> {
  const now = await readLock(gate).catch(() => undefined);
  if (now?.holder?.token === token) await fs.rm(gate, { force: true }).catch(() => undefined);
}

/**
 * Left by a process that is gone: one on this machine whose pid is not running; one written by
 * this machine's clock (or unreadable) that has not been refreshed within the bound; or one that
 * has not changed at all while we watched it for the bound (a time in the future, a clock that
 * disagrees with ours, another machine).
 */
export function isStale(lock: LockLook, unchangedForMs: number, staleAfterMs: number): boolean {
  const { holder } = lock;
  const here = holder?.host === os.hostname();
  if (holder && here && holder.pid !== process.pid && !isOwnProcessAlive(holder.pid)) return true;
  if ((here || !holder) && Date.now() - lock.mtimeMs > staleAfterMs) return true;
  return unchangedForMs > staleAfterMs;
}

/** For each file, how long it has looked the same, by this process's steady clock (which no other clock can skew). */
export class LockWatch {
  private readonly seen = new Map<string, { readonly look: string; readonly since: number }>();

  unchangedFor(file: string, lock: LockLook): number {
    const now = performance.now();
    const last = this.seen.get(file);
    if (last?.look === lock.look) return now - last.since;
    this.seen.set(file, { look: lock.look, since: now });
    return 0;
  }
}

function parseHolder(content: Buffer): LockHolder | undefined {
  try {
    const value = JSON.parse(content.toString('utf8')) as Partial<LockHolder> | null;
    const { pid, host, token } = value ?? {};
    if (
      !Number.isSafeInteger(pid) ||
      pid! <= 0 ||
      typeof host !== 'string' ||
      host.length > 255 ||
      typeof token !== 'string' ||
      token.length > 64
    )
      return undefined;
    return { pid: pid!, host, token };
  } catch {
    return undefined;
  }
}
