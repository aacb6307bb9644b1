// What a lock file or an end marker says, how it is right now, and whether the one who wrote it is
// gone; folderLock.ts states the rules these serve. Everything read here is untrusted: another
// process may be writing, or have died writing.

import { createHash, randomBytes } from 'crypto';
import { promises as fs, type BigIntStats } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { holderState, machineOfThisProcess, startOfThisProcess, type HolderIdentity } from './holderProcess';
import { readRegularFile } from './validatedFile';

export const LOCK_FILE = '.lock';
/** An end marker's name: the lock file's, then the token of the file it ends. Starts with LOCK_FILE, so the store leaves it alone. */
export const END_MARKER_PREFIX = `${LOCK_FILE}.end-`;
/** A token that can be part of a file name; any other file is named by a digest. */
const TOKEN = /^[0-9a-f]{16,64}$/;
const MACHINE = /^boot:[0-9a-f-]{36}\/pid-ns:\d{1,20}$/;
const MAX_LOCK_BYTES = 4096;

export interface LockHolder extends HolderIdentity {
  /** The hostname, for the person who reads the file; never used to judge it. */
  readonly host: string;
  /** New for every file written: no two files ever carry the same one. */
  readonly token: string;
}

/** Tokens of the files (lock files and end markers) this process made and has not let go of. */
const heldTokens = new Set<string>();

export function newHolder(): LockHolder {
  const machine = machineOfThisProcess();
  const started = startOfThisProcess();
  return {
    pid: process.pid,
    host: os.hostname(),
    token: randomBytes(8).toString('hex'),
    ...(machine !== undefined ? { machine } : {}),
    ...(started !== undefined ? { started } : {}),
  };
}

/** This process no longer holds the file with `token` (removed, or found taken over). */
export function letGoOf(token: string): void {
  heldTokens.delete(token);
}

/** A lock file as read at one moment. */
export interface LockSnapshot {
  /** Its holder's token; for unreadable content, a digest of the file in its place. */
  readonly token: string;
  /** The inode (device and number): the same only while the file is the same file. */
  readonly fileId: string;
  /** Inode, size, mtime and content: two equal fingerprints mean nothing happened to the file in between. */
  readonly fingerprint: string;
  readonly holder?: LockHolder;
}

/** The end marker that whoever removes the file with `token` (its holder letting go, or a waiter taking over) makes first. */
export function endMarkerFor(lockFile: string, token: string): string {
  return path.join(path.dirname(lockFile), `${END_MARKER_PREFIX}${token}`);
}

/** The lock file as it is now; undefined when there is none. */
export async function readLock(file: string): Promise<LockSnapshot | undefined> {
  let stats: BigIntStats;
  try {
    stats = await fs.lstat(file, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A symlink, a directory or a FIFO put there reads as empty: unreadable, and judged by watching it.
  const content = stats.isFile()
    ? ((await readRegularFile(file, MAX_LOCK_BYTES).catch(() => undefined)) ?? Buffer.alloc(0))
    : Buffer.alloc(0);
  const fileId = `${stats.dev}:${stats.ino}`;
  const holder = parseHolder(content);
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 32);
  return {
    token:
      holder && TOKEN.test(holder.token)
        ? holder.token
        : `x${createHash('sha256').update(`${fileId}:${digest}`).digest('hex').slice(0, 32)}`,
    fileId,
    fingerprint: `${fileId}:${stats.size}:${stats.mtimeNs}:${digest}`,
    holder,
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
  heldTokens.add(holder.token);
  try {
    // A reader without the machine's facts is told why a waiter will only watch this file.
    const record = holder.machine === undefined ? { ...holder, liveness: 'cannot be checked here' } : holder;
    await handle.writeFile(JSON.stringify(record), 'utf8');
    const { dev, ino } = await handle.stat({ bigint: true });
    await handle.close();
    return `${dev}:${ino}`;
  } catch (error) {
    await handle.close().catch(() => undefined);
    // Ours and just made, by a running process: no one has judged it abandoned yet.
    await fs.rm(file, { force: true }).catch(() => undefined);
    letGoOf(holder.token);
    throw error;
  }
}

/** Removes an end marker this process made, unless it was taken from us meanwhile. */
export async function removeEndMarker(marker: string, token: string): Promise<void> {
  const now = await readLock(marker).catch(() => undefined);
  if (now?.holder?.token === token) await fs.rm(marker, { force: true }).catch(() => undefined);
  letGoOf(token);
}

/**
 * Whether the file was left by a process that is gone (folderLock.ts, rule 3): its record names
 * this machine and its process does not run; or no one can tell, and it has not changed while
 * this process watched it for the bound. A running holder on this machine is never abandoned.
 */
export function isAbandoned(lock: LockSnapshot, unchangedForMs: number, staleAfterMs: number): boolean {
  const { holder } = lock;
  const state = holder ? holderState(holder, () => heldTokens.has(holder.token)) : 'unknown';
  return state === 'unknown' ? unchangedForMs > staleAfterMs : state === 'gone';
}

/** A moment by both of this process's clocks. */
export interface Moment {
  readonly steady: number;
  readonly wall: number;
}

export function moment(): Moment {
  return { steady: performance.now(), wall: Date.now() };
}

/**
 * How long ago `then` was, by the clock that says longer: the steady clock stops while the machine
 * sleeps, and the wall clock can be set back; neither may hide time that passed.
 */
export function elapsedSince(then: Moment): number {
  const now = moment();
  return Math.max(now.steady - then.steady, now.wall - then.wall);
}

/** For each file, how long it has stayed the same, by this process's steady clock (which no other clock can skew). */
export class LockWatch {
  private readonly seen = new Map<string, { readonly fingerprint: string; readonly since: number }>();

  unchangedFor(file: string, lock: LockSnapshot): number {
    const now = performance.now();
    const last = this.seen.get(file);
    if (last?.fingerprint === lock.fingerprint) return now - last.since;
    this.seen.set(file, { fingerprint: lock.fingerprint, since: now });
    return 0;
  }
}

function parseHolder(content: Buffer): LockHolder | undefined {
  try {
    const value = JSON.parse(content.toString('utf8')) as Partial<Record<keyof LockHolder, unknown>> | null;
    const { pid, host, token, machine, started } = value ?? {};
    if (
      typeof pid !== 'number' ||
      !Number.isSafeInteger(pid) ||
      pid <= 0 ||
      typeof host !== 'string' ||
      host.length > 255 ||
      typeof token !== 'string' ||
      token.length > 64
    )
      return undefined;
    return {
      pid,
      host,
      token,
      ...(typeof machine === 'string' && MACHINE.test(machine) ? { machine } : {}),
      ...(typeof started === 'string' && /^\d{1,20}$/.test(started) ? { started } : {}),
    };
  } catch {
    return undefined;
  }
}
