// One writer at a time per storage folder. Two extension hosts share a folder when two windows
// (two code-server tabs, two containers) open one workspace, or while a reloaded window's old host
// finishes its last writes; each takes this lock around a commit, reads what the other wrote, and
// merges before writing. A lock file of Redline's own rather than proper-lockfile, which hooks the
// process's exit signals: the extension host is every extension's process.
//
// Words used below. The lock file is `.lock` in the folder. Its record names the process that
// made it (pid and hostname, and where Linux tells them, its machine: boot id and PID namespace)
// and a token, random and new for every file made, so that a token names one file among all that
// will ever have that name. An end marker is `.lock.end-<token>`: whoever removes the file with
// that token makes it first. The bound is 20 s. A holder is confirmed at the start of each
// refresh that finds its lock file still its own.
//
// Why two holds that both succeed never overlap. Each rule names the tests that show it, in
// test/unit/ unless a folder is given.
// 1. A lock file is only made with O_EXCL and a new token: at most one exists at a time, and no
//    file that was removed ever comes back.
//    lockTakeover.test.ts "of eight takers of one abandoned lock, one removes it and the others
//    leave the next holder alone".
// 2. A lock file is only removed by a process that made its end marker with O_EXCL, then read the
//    file again and found it exactly as judged (inode, size, mtime and bytes). So two processes
//    never remove the same file, and one that comes late never removes the next.
//    lockTakeover.test.ts "a taker that comes after the abandoned lock was replaced leaves the new
//    one", "a lock refreshed since it was judged is left alone".
// 3. A waiter judges a lock file abandoned only when
//    a. its record names this machine and its process is gone: kill(pid, 0) fails with ESRCH, or
//       /proc shows a zombie or a newer process under that pid, or the record is the waiter's own
//       process's and it no longer holds that token; or
//    b. its process cannot be checked (another machine or PID namespace, a record without a
//       machine, an unreadable record), and the waiter has seen the file unchanged for the bound
//       by its own steady clock.
//    So a running holder on this machine is never taken from, whatever its mtime (EPERM counts as
//    running), and no wall clock judges a lock.
//    folderLockClocks.test.ts "a window whose clock is an hour ahead|behind …";
//    test/integration/folderLockNamespaces.test.ts, all three; folderLock.test.ts "waits for a
//    holder that runs as another user (kill gives EPERM)", "takes over at once a lock whose
//    process is a zombie", "takes over at once a lock this process left behind and no longer
//    holds, or one whose pid a newer process has", "watches a lock no one here can check, and
//    takes it once it has not changed for the bound"; folderLockBounds.test.ts "another
//    machine's lock dated …".
// 4. A holder refreshes every tenth of the bound: it sets a later mtime than it last set (whatever
//    the wall clock says), then checks that no end marker of its token exists, then that the file
//    is still its own. A waiter of 3b that read the file before the new mtime has made its end
//    marker already, so the holder finds the marker, or its file gone, and stops; one that reads
//    after sees a change and starts watching again.
//    folderLockBounds.test.ts "a live holder past the bound is not taken over, and its lock stays
//    fresh"; folderLock.test.ts "is told before its next write once its refresh finds the lock gone".
// 5. A holder commits (renames a file into place, appends to the feedback journal) only right
//    after assertHeld() found its last confirmation younger than half the bound, by its steady
//    clock and by its wall clock: the first stops while the machine sleeps, the second can be set
//    back. A waiter of 3b waits a whole bound after the file last changed, so it can only take
//    over once the holder has stopped committing.
//    folderLockBounds.test.ts "a holder that could not refresh for half the bound stops before
//    writing", "a holder whose wall clock moved on past half the bound …"; storedJsonFile.test.ts
//    "checks its hold once the file is written and fsynced, right before the rename".
// 6. Letting go follows rule 2 with the holder's own token, and unlinks only while its end marker
//    is younger than half the bound; after a longer pause it makes the marker again and reads the
//    file again.
//    folderLock.test.ts "a holder that pauses while letting go leaves the next holder's lock alone".
// 7. A waiter removes nothing once it has been behind its end marker for half the bound: by then
//    the marker itself may have been judged abandoned by 3b and removed. An end marker of any token
//    but the current lock file's guards nothing (rule 1), so a new holder removes those.
//    lockTakeover.test.ts "a taker that stayed behind its end marker for half the bound removes
//    nothing", "waits while a live process is at the end marker, and clears the marker of one that
//    died there".
// Rules 5 to 7 assume that no process pauses for more than half the bound between a check and the
// one call it guards (a rename, an unlink). Within one machine nothing is assumed: by 3a, a
// running holder's lock is never ended.
// All of it together: test/integration/folderLockRace.test.ts, four processes, two with their
// clocks an hour off, racing 200 rounds for planted abandoned locks: no two successful holds
// overlap, no acknowledged item is lost, and no lock file or end marker is left.

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
  // Longer than the bound, so that a lock only found abandoned by watching it is taken in one wait.
  waitAtMostMs: 30_000,
};
let timing = DEFAULT_TIMING;

/** Shorter bounds for a test (a live holder past the bound, a lock watched for the bound); returns the undo. */
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
