// One hold of a folder's lock file, from taking it to letting it go: waiting for a live holder,
// taking over a stale one, refreshing it while held, and finding out if it was lost. The rules
// that make it exclusive are in folderLock.ts.

import { promises as fs } from 'fs';
import * as path from 'path';
import {
  createLock,
  GATE_PREFIX,
  gateFor,
  isStale,
  LockWatch,
  newHolder,
  readLock,
  removeGate,
  type LockHolder,
  type LockLook,
} from './lockFile';
import { endStaleLock, enterOwnGate } from './lockTakeover';

export interface LockTiming {
  /** A lock that has not been refreshed (or has not changed) for this long is stale. */
  readonly staleAfterMs: number;
  /** How often a holder refreshes its lock: well within the bound. */
  readonly refreshEveryMs: number;
  /** How long a commit waits for another window before it fails (and is retried with the next change). */
  readonly waitAtMostMs: number;
}

/** What the work done under the lock can ask of it. */
export interface FolderLockHold {
  /**
   * Throws unless the lock is still ours and was confirmed recently enough that no other process
   * can have judged it stale. Call it right before each write that must not land beside another
   * window's.
   */
  assertHeld(): void;
}

/** The lock was taken over by another window, or could not be confirmed: the commit did not complete. */
export class FolderLockLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FolderLockLostError';
  }
}

/** Folders whose old gates this process has cleared once (see sweepGates). */
const swept = new Set<string>();

/** The lock file as this hold made it. */
interface TakenLock {
  readonly file: string;
  readonly holder: LockHolder;
  readonly fileId: string;
  /** When (steady clock) it was made. */
  readonly takenAt: number;
}

export class HeldLock implements FolderLockHold {
  private lost: FolderLockLostError | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly file: string;
  private readonly holder: LockHolder;
  private readonly fileId: string;
  /** When (steady clock) the lock last looked fresh to everyone: made, or refreshed and seen to be ours. */
  private confirmedAt: number;

  private constructor(
    taken: TakenLock,
    private readonly timing: LockTiming,
  ) {
    this.file = taken.file;
    this.holder = taken.holder;
    this.fileId = taken.fileId;
    this.confirmedAt = taken.takenAt;
    this.timer = setInterval(
      () => (this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined))),
      timing.refreshEveryMs,
    );
    this.timer.unref();
  }

  /** Waits for the lock (at most `timing.waitAtMostMs`), taking over a stale one; throws with what to delete when the wait runs out. */
  static async acquire(file: string, timing: LockTiming): Promise<HeldLock> {
    const holder = newHolder();
    const watch = new LockWatch();
    const deadline = performance.now() + timing.waitAtMostMs;
    let tookOver = false;
    let blocker: LockLook | undefined;
    // A waiter looks often while a commit (short) is under way, and at least ten times within the bound.
    const longestPause = Math.min(100, timing.staleAfterMs / 10);
    for (let pause = 5; ; pause = Math.min(pause * 2, longestPause)) {
      const startedAt = performance.now();
      const fileId = await createLock(file, holder);
      if (fileId) {
        const held = new HeldLock({ file, holder, fileId, takenAt: startedAt }, timing);
        await held.sweepGates(tookOver);
        return held;
      }
      const before = blocker;
      blocker = await readLock(file);
      // Another holder has just come in: its commit is likely over soon.
      if (blocker && blocker.incarnation !== before?.incarnation) pause = 5;
      if (blocker && isStale(blocker, watch.unchangedFor(file, blocker), timing.staleAfterMs)) {
        const outcome = await endStaleLock(file, blocker, { watch, staleAfterMs: timing.staleAfterMs });
        if (outcome === 'ended') {
          tookOver = true;
          continue;
        }
      }
      if (performance.now() > deadline) throw new Error(waitedTooLong(file, blocker ?? before, timing));
      // One let go of just now: try again at once.
      if (blocker) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  assertHeld(): void {
    if (this.lost) throw this.lost;
    const unconfirmedFor = performance.now() - this.confirmedAt;
    // Past half the bound another window could soon judge it stale; nothing more is written then.
    if (unconfirmedFor > this.timing.staleAfterMs / 2) {
      throw new FolderLockLostError(
        `Redline could not refresh its lock ${this.file} for ${seconds(unconfirmedFor)} s, so it stopped before writing: another window may have taken the folder over.`,
      );
    }
  }

  /**
   * Lets go: behind its own gate, removes the lock if it is still this hold's file. Throws when it
   * is not: then another window took it over meanwhile, and this hold's writes were not alone.
   */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing;
    const gate = gateFor(this.file, this.holder.token);
    const token = await enterOwnGate(
      gate,
      { watch: new LockWatch(), staleAfterMs: this.timing.staleAfterMs },
      this.timing.waitAtMostMs,
    );
    if (!token)
      throw new FolderLockLostError(
        `Redline could not let go of its lock ${this.file}: ${gate} stayed in the way for ${seconds(this.timing.waitAtMostMs)} s. If no other Redline window is open on this folder, delete both files.`,
      );
    try {
      const now = await readLock(this.file);
      if (now?.holder?.token !== this.holder.token || now.fileId !== this.fileId)
        throw this.lose(now ? 'replaced by another window' : 'removed');
      await fs.rm(this.file, { force: true });
    } finally {
      await removeGate(gate, token);
    }
  }

  /**
   * Moves the lock's time on, then checks that no one is at its gate, then that the file is still
   * ours, in that order. A taker makes the gate, reads the lock, removes it, then the gate: if it
   * read the lock before this new time, this check finds either its gate or the lock gone;
   * if after, it sees the new time and leaves the lock alone.
   */
  private async refresh(): Promise<void> {
    if (this.lost) return;
    const startedAt = performance.now();
    try {
      const time = new Date();
      await fs.utimes(this.file, time, time);
      if (
        await fs.stat(gateFor(this.file, this.holder.token)).then(
          () => true,
          () => false,
        )
      )
        return void this.lose('being taken over by another window');
      // The inode alone could be a new file's: a freed inode number is soon given out again.
      const now = await readLock(this.file);
      if (!now) return void this.lose('removed');
      if (now.holder?.token !== this.holder.token || now.fileId !== this.fileId)
        return void this.lose('replaced by another window');
      this.confirmedAt = startedAt;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.lose('removed');
      // Any other failure leaves it unconfirmed: assertHeld refuses once that has lasted too long.
    }
  }

  private lose(how: string): FolderLockLostError {
    this.lost ??= new FolderLockLostError(
      `Redline's lock ${this.file} was ${how} while this window held it, so this change was not confirmed.`,
    );
    return this.lost;
  }

  /**
   * Gates left by a process that died inside one: at the first hold in a folder, and after a
   * takeover (which means some process died). Any gate but our own is for an incarnation that has
   * ended, since the lock is ours now; only those whose writer is gone are removed.
   */
  private async sweepGates(tookOver: boolean): Promise<void> {
    const directory = path.dirname(this.file);
    if (!tookOver && swept.has(directory)) return;
    swept.add(directory);
    const own = gateFor(this.file, this.holder.token);
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    for (const name of names.filter((name) => name.startsWith(GATE_PREFIX))) {
      const gate = path.join(directory, name);
      if (gate === own) continue;
      const look = await readLock(gate).catch(() => undefined);
      if (look && isStale(look, 0, this.timing.staleAfterMs)) await fs.rm(gate, { force: true }).catch(() => undefined);
    }
  }
}

function waitedTooLong(file: string, blocker: LockLook | undefined, timing: LockTiming): string {
  const who = blocker?.holder ? ` (process ${blocker.holder.pid} on ${blocker.holder.host})` : '';
  return `Redline waited ${seconds(timing.waitAtMostMs)} s for the lock ${file}, which another Redline window holds${who}. If no other Redline window is open on this folder, delete that file.`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
}
