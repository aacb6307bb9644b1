// One writer at a time per storage folder. Two extension hosts share a folder when two windows
// (two code-server tabs) open one workspace, or while a reloaded window's old host finishes its
// last writes; each takes this lock around a commit, reads what the other wrote, and merges
// before writing. A lock file of Redline's own rather than proper-lockfile, which hooks the
// process's exit signals: the extension host is every extension's process.
//
// Exclusive because `.lock` is only ever made with O_EXCL and a fresh token, and only removed
// behind its gate (lockTakeover.ts); a holder writes only while it confirmed its lock recently and
// succeeds only if the lock is still its own when it lets go (heldLock.ts), so two holds that both
// succeed never overlapped.

import { promises as fs } from 'fs';
import * as path from 'path';
import { HeldLock, type FolderLockHold, type LockTiming } from './heldLock';
import { LOCK_FILE } from './lockFile';

export { LOCK_FILE };
export { FolderLockLostError, type FolderLockHold } from './heldLock';

const DEFAULT_TIMING: LockTiming = {
  // Far longer than a holder goes without refreshing, even on a busy machine.
  staleAfterMs: 20_000,
  refreshEveryMs: 2_000,
  // Longer than the bound, so that a lock only found stale by watching it is taken in one wait.
  waitAtMostMs: 30_000,
};
let timing = DEFAULT_TIMING;

/** Shorter bounds for a test (a live holder past the bound, a lock dated in the future); returns the undo. */
export function setFolderLockTimingForTests(changes: Partial<LockTiming>): () => void {
  const before = timing;
  timing = { ...timing, ...changes };
  return () => void (timing = before);
}

/** Commits of this process, per folder, queued so that the lock file is only contended between processes. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` while this process holds `directory`'s lock; the folder is made if need be. Rejects
 * when the lock was lost to another window meanwhile, even if `work` resolved.
 */
export function withFolderLock<T>(directory: string, work: (hold: FolderLockHold) => Promise<T>): Promise<T> {
  const previous = queues.get(directory) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => holdingLock(directory, work));
  const tail = run.catch(() => undefined);
  queues.set(directory, tail);
  void tail.then(() => {
    if (queues.get(directory) === tail) queues.delete(directory);
  });
  return run;
}

async function holdingLock<T>(directory: string, work: (hold: FolderLockHold) => Promise<T>): Promise<T> {
  await fs.mkdir(directory, { recursive: true });
  const hold = await HeldLock.acquire(path.join(directory, LOCK_FILE), timing);
  let result: T;
  try {
    result = await work(hold);
  } catch (error) {
    // The work's own failure is the one to report; letting go is still tried.
    await hold.release().catch(() => undefined);
    throw error;
  }
  await hold.release();
  return result;
}
