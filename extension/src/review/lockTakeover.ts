// Removing one lock file, and only that one, behind its end marker (folderLock.ts, rules 2 and 6):
// a waiter ending a lock file it judged abandoned, and a holder letting go of its own. Also used
// for an end marker itself, when the process that made it died inside it.

import { promises as fs } from 'fs';
import {
  createLock,
  elapsedSince,
  endMarkerFor,
  isAbandoned,
  moment,
  newHolder,
  readLock,
  removeEndMarker,
  type LockSnapshot,
  type LockWatch,
  type Moment,
} from './lockFile';

/** End markers of end markers: each level is another process that died inside the few calls one is held for. */
const MAX_DEPTH = 3;

export interface TakeoverContext {
  readonly watch: LockWatch;
  readonly staleAfterMs: number;
  /** How many end markers deep this is (the end marker of an end marker); 0 for the lock file itself. */
  readonly depth?: number;
}

/**
 * 'ended': `file` was the file judged and is removed. 'busy': another process is ending it (an end
 * marker left by a process that died doing so is cleared on the way). 'changed': it is not the
 * file judged any more (refreshed, replaced or gone), or this process paused too long to remove
 * it safely; it was left alone.
 */
export type TakeoverOutcome = 'ended' | 'busy' | 'changed';

/** Removes `file` if it is still exactly `judged`, which the caller found abandoned (or holds). */
export async function endLockFile(
  file: string,
  judged: LockSnapshot,
  context: TakeoverContext,
): Promise<TakeoverOutcome> {
  const marker = endMarkerFor(file, judged.token);
  const entered = await enterEndMarker(marker, context);
  if (!entered) return 'busy';
  try {
    const now = await readLock(file);
    if (now?.fingerprint !== judged.fingerprint) return 'changed';
    // Only a pause long enough for this marker to be judged abandoned in turn could have let another
    // process in behind it; after one that long, nothing is removed.
    if (pausedTooLong(entered.at, context)) return 'changed';
    await fs.rm(file, { force: true });
    return 'ended';
  } finally {
    await removeEndMarker(marker, entered.token);
  }
}

/** Past half the bound, another process may have judged what this process holds abandoned. */
export function pausedTooLong(since: Moment, context: Pick<TakeoverContext, 'staleAfterMs'>): boolean {
  return elapsedSince(since) > context.staleAfterMs / 2;
}

/** Makes the end marker; when another process has it, clears it only if that process is gone. */
export async function enterEndMarker(
  marker: string,
  context: TakeoverContext,
): Promise<{ readonly token: string; readonly at: Moment } | undefined> {
  const holder = newHolder();
  const at = moment();
  if (await createLock(marker, holder)) return { token: holder.token, at };
  const other = await readLock(marker);
  const depth = context.depth ?? 0;
  if (
    other &&
    depth < MAX_DEPTH &&
    isAbandoned(other, context.watch.unchangedFor(marker, other), context.staleAfterMs)
  ) {
    await endLockFile(marker, other, { ...context, depth: depth + 1 });
  }
  return undefined;
}

/**
 * The holder's own end marker, waiting (until `deadline`, steady clock) while a waiter that judged
 * its lock abandoned is deciding; undefined when the wait ran out.
 */
export async function waitForEndMarker(
  marker: string,
  context: TakeoverContext,
  deadline: number,
): Promise<{ readonly token: string; readonly at: Moment } | undefined> {
  for (let pause = 2; performance.now() < deadline; pause = Math.min(pause * 2, 50)) {
    const entered = await enterEndMarker(marker, { ...context, depth: 0 });
    if (entered) return entered;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return undefined;
}
