// One writer at a time per storage folder. Two extension hosts share a folder when two windows
// (two code-server tabs) open one workspace, or while a reloaded window's old host finishes its
// last writes; each of them takes this lock around a commit, reads what the other wrote, and
// merges before writing. A lock file with the holder's pid, rather than proper-lockfile: that
// library hooks the process's exit signals (signal-exit), and the extension host is every
// extension's process.

import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isOwnProcessAlive } from '../../../shared/privateDirectory';

export const LOCK_FILE = '.lock';
/** A holder this old is gone, whatever its pid says: a commit writes a few files of at most 10 MiB. */
const STALE_AFTER_MS = 30_000;
/** How long a commit waits for the other window before it fails (and is retried with the next change). */
const WAIT_AT_MOST_MS = 20_000;

/** Commits of this process, per folder, queued so that the lock file is only contended between processes. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `work` while this process holds `directory`'s lock; the folder is made if need be. */
export function withFolderLock<T>(directory: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(directory) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => holdingLock(directory, work));
  const tail = run.catch(() => undefined);
  queues.set(directory, tail);
  void tail.then(() => {
    if (queues.get(directory) === tail) queues.delete(directory);
  });
  return run;
}

async function holdingLock<T>(directory: string, work: () => Promise<T>): Promise<T> {
  await fs.mkdir(directory, { recursive: true });
  const file = path.join(directory, LOCK_FILE);
  const token = await acquire(file);
  try {
    return await work();
  } finally {
    await release(file, token);
  }
}

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

async function acquire(file: string): Promise<string> {
  const token = randomBytes(8).toString('hex');
  const holder: Holder = { pid: process.pid, host: os.hostname(), token };
  const deadline = Date.now() + WAIT_AT_MOST_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      await fs.writeFile(file, JSON.stringify(holder), { flag: 'wx', mode: 0o600 });
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await isStale(file)) {
      // Renamed before it is removed: of two waiters that both judged it stale, one wins the rename.
      const aside = `${file}.stale-${token}`;
      if (await fs.rename(file, aside).then(() => true, () => false)) await fs.rm(aside, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`another Redline window has held ${file} for over ${WAIT_AT_MOST_MS / 1000} s; if no other window is open on this folder, delete that file`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Left by a process that is gone (same machine, pid not running), or held far longer than any commit takes. */
async function isStale(file: string): Promise<boolean> {
  let text: string;
  let age: number;
  try {
    const stats = await fs.stat(file);
    age = Date.now() - stats.mtimeMs;
    text = stats.size <= 4096 ? await fs.readFile(file, 'utf8') : '';
  } catch {
    return false; // Gone already: the next try creates it.
  }
  if (age > STALE_AFTER_MS) return true;
  let holder: Partial<Holder> | undefined;
  try {
    holder = JSON.parse(text) as Partial<Holder>;
  } catch {
    return false; // Being written right now, or damaged: the age decides.
  }
  if (holder.host !== os.hostname() || !Number.isInteger(holder.pid) || holder.pid === process.pid) return false;
  return !isOwnProcessAlive(holder.pid!);
}

/** Removes the lock only if it is still ours: a holder judged stale may have lost it to another. */
async function release(file: string, token: string): Promise<void> {
  try {
    const holder = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<Holder>;
    if (holder.token === token) await fs.rm(file, { force: true });
  } catch {
    // Gone or replaced: nothing of ours to remove.
  }
}
