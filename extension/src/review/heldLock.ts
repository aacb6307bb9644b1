// One hold of a folder's lock file, from taking it to letting it go: waiting for a running holder,
// ending an abandoned one, refreshing it while held, and finding out if it was lost. The rules,
// and why they make the lock exclusive, are in folderLock.ts.

import { promises as fs } from 'fs';
import * as path from 'path';
import {
  createLock,
  END_MARKER_PREFIX,
  endMarkerFor,
  isAbandoned,
  letGoOf,
  LockWatch,
  moment,
  elapsedSince,
  newHolder,
  readLock,
  removeEndMarker,
  type LockHolder,
  type LockSnapshot,
  type Moment,
} from './lockFile';
import { endLockFile, pausedTooLong, waitForEndMarker } from './lockTakeover';

export interface LockTiming {
  /** The bound: a lock file no one can check that has not changed for this long is abandoned. */
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
   * can have judged it abandoned. Call it right before each call that commits (a rename into
   * place, an append), after the slow part (writing and fsyncing) is done.
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

/** Folders whose old end markers this process has cleared once (see sweepEndMarkers). */
const swept = new Set<string>();

/** The lock file as this hold made it. */
interface TakenLock {
  readonly file: string;
  readonly holder: LockHolder;
  readonly fileId: string;
  /** Just before it was made. */
  readonly takenAt: Moment;
}

export class HeldLock implements FolderLockHold {
  private lost: FolderLockLostError | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly file: string;
  private readonly holder: LockHolder;
  private readonly fileId: string;
  /** The start of the last refresh that found the lock ours (or of its making). */
  private confirmedAt: Moment;
  /** The mtime the last refresh set: each sets a later one, whatever the wall clock does. */
  private lastMtimeMs = 0;

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

  /** Waits for the lock (at most `timing.waitAtMostMs`), ending an abandoned one; throws with what to delete when the wait runs out. */
  static async acquire(file: string, timing: LockTiming): Promise<HeldLock> {
    const holder = newHolder();
    const watch = new LockWatch();
    const deadline = performance.now() + timing.waitAtMostMs;
    let tookOver = false;
    let blocker: LockSnapshot | undefined;
    // A waiter looks often while a commit (short) is under way, and at least ten times within the bound.
    const longestPause = Math.min(100, timing.staleAfterMs / 10);
    for (let pause = 5; ; pause = Math.min(pause * 2, longestPause)) {
      const startedAt = moment();
      const fileId = await createLock(file, holder);
      if (fileId) {
        const held = new HeldLock({ file, holder, fileId, takenAt: startedAt }, timing);
        await held.sweepEndMarkers(tookOver);
        return held;
      }
      const before = blocker;
      blocker = await readLock(file);
      // Another holder has just come in: its commit is likely over soon.
      if (blocker && blocker.token !== before?.token) pause = 5;
      if (blocker && isAbandoned(blocker, watch.unchangedFor(file, blocker), timing.staleAfterMs)) {
        const outcome = await endLockFile(file, blocker, { watch, staleAfterMs: timing.staleAfterMs });
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
    const unconfirmedFor = elapsedSince(this.confirmedAt);
    // Past half the bound another window could soon judge it abandoned; nothing more is committed then.
    if (unconfirmedFor > this.timing.staleAfterMs / 2) {
      throw new FolderLockLostError(
        `Redline could not refresh its lock ${this.file} for ${seconds(unconfirmedFor)} s, so it stopped before writing: another window may have taken the folder over.`,
      );
    }
  }

  /**
   * Lets go: removes the lock if it is still this hold's file, behind its end marker and only soon
   * after making it, as a waiter ends an abandoned one. Throws when it is not: then another window
   * took it over meanwhile, and this hold's writes were not alone.
   */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing;
    try {
      await this.remove();
    } finally {
      letGoOf(this.holder.token);
    }
  }

  private async remove(): Promise<void> {
    const marker = endMarkerFor(this.file, this.holder.token);
    const context = { watch: new LockWatch(), staleAfterMs: this.timing.staleAfterMs };
    const deadline = performance.now() + this.timing.waitAtMostMs;
    for (;;) {
      const entered = await waitForEndMarker(marker, context, deadline);
      if (!entered)
        throw new FolderLockLostError(
          `Redline could not let go of its lock ${this.file}: ${marker} stayed in the way for ${seconds(this.timing.waitAtMostMs)} s. If no other Redline window is open on this folder, delete both files.`,
        );
      try {
        const now = await readLock(this.file);
        if (now?.holder?.token !== this.holder.token || now.fileId !== this.fileId)
          throw this.lose(now ? 'replaced by another window' : 'removed');
        if (!pausedTooLong(entered.at, context)) return void (await fs.rm(this.file, { force: true }));
      } finally {
        await removeEndMarker(marker, entered.token);
      }
      // This process paused between making the marker and now: a new marker, and the lock read again.
    }
  }

  /**
   * Moves the lock's mtime on, then checks that no one has made its end marker, then that the file
   * is still ours, in that order. A waiter makes the marker, reads the lock, removes it, then the
   * marker: if it read the lock before this new mtime, this check finds either its marker or the
   * lock gone; if after, it sees the new mtime and leaves the lock alone.
   */
  private async refresh(): Promise<void> {
    if (this.lost) return;
    const startedAt = moment();
    try {
      // Later than the last by at least a second, so that a wall clock set back or stopped still changes the file.
      this.lastMtimeMs = Math.max(Date.now(), this.lastMtimeMs + 1000);
      await fs.utimes(this.file, this.lastMtimeMs / 1000, this.lastMtimeMs / 1000);
      if (
        await fs.stat(endMarkerFor(this.file, this.holder.token)).then(
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
   * End markers left by a process that died inside one: at the first hold in a folder, and after a
   * takeover (which means some process died). Only the marker of the lock file that exists now
   * guards anything (rule 7 in folderLock.ts), so every other one is removed.
   */
  private async sweepEndMarkers(tookOver: boolean): Promise<void> {
    const directory = path.dirname(this.file);
    if (!tookOver && swept.has(directory)) return;
    swept.add(directory);
    const current = await readLock(this.file).catch(() => undefined);
    const keep = new Set(
      [this.holder.token, current?.token ?? this.holder.token].map((token) => endMarkerFor(this.file, token)),
    );
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    for (const name of names.filter((name) => name.startsWith(END_MARKER_PREFIX))) {
      const marker = path.join(directory, name);
      if (!keep.has(marker)) await fs.rm(marker, { force: true }).catch(() => undefined);
    }
  }
}

function waitedTooLong(file: string, blocker: LockSnapshot | undefined, timing: LockTiming): string {
  const who = blocker?.holder ? ` (process ${blocker.holder.pid} on ${blocker.holder.host})` : '';
  return `Redline waited ${seconds(timing.waitAtMostMs)} s for the lock ${file}, which another Redline window holds${who}. If no other Redline window is open on this folder, delete that file.`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);
}
