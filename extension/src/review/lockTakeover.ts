// Ending one incarnation of a lock file, and only that one. Whoever removes a lock file (a waiter
// taking over a stale one, or its holder letting go) first creates the gate named after the
// incarnation it means to end, with O_EXCL, and reads the lock again behind it: only when it still
// looks exactly as judged is it removed. Two takers of one stale lock cannot both pass its gate,
// and a taker that comes late finds another incarnation behind it and leaves that one alone.

import { promises as fs } from 'fs';
import {
  createLock,
  gateFor,
  isStale,
  newHolder,
  readLock,
  removeGate,
  type LockLook,
  type LockWatch,
} from './lockFile';

/** Gates of gates: each level is another process that died inside the few calls a gate is held for. */
const MAX_DEPTH = 3;

export interface TakeoverContext {
  readonly watch: LockWatch;
  readonly staleAfterMs: number;
  /** How many gates deep this takeover is (a gate of a gate); 0 for the lock itself. */
  readonly depth?: number;
}

/**
 * 'ended': `file` was the incarnation judged and is removed. 'busy': another process is ending
 * it (a stale gate of a process that died doing so is cleared on the way). 'changed': it is not
 * the file judged any more (refreshed, replaced or gone), and was left alone.
 */
export type TakeoverOutcome = 'ended' | 'busy' | 'changed';

/** Removes `file` if it is still exactly `judged`, which the caller found stale. */
export async function endStaleLock(file: string, judged: LockLook, context: TakeoverContext): Promise<TakeoverOutcome> {
  const gate = gateFor(file, judged.incarnation);
  const entered = await enterGate(gate, context);
  if (!entered) return 'busy';
  try {
    const now = await readLock(file);
    if (now?.look !== judged.look) return 'changed';
    // The gate keeps every other taker out; only a pause long enough for this gate to be judged
    // stale in turn could have let one in, so after one that long nothing is removed.
    if (performance.now() - entered.at > context.staleAfterMs / 2) return 'changed';
    await fs.rm(file, { force: true });
    return 'ended';
  } finally {
    await removeGate(gate, entered.token);
  }
}

/** Creates the gate; when another process holds it, clears it only if that process is gone. */
async function enterGate(gate: string, context: TakeoverContext): Promise<{ token: string; at: number } | undefined> {
  const holder = newHolder();
  const at = performance.now();
  if (await createLock(gate, holder)) return { token: holder.token, at };
  const other = await readLock(gate);
  const depth = context.depth ?? 0;
  if (other && depth < MAX_DEPTH && isStale(other, context.watch.unchangedFor(gate, other), context.staleAfterMs)) {
    await endStaleLock(gate, other, { ...context, depth: depth + 1 });
  }
  return undefined;
}

/**
 * The holder's own way out: its gate, waiting (at most `waitAtMostMs`) while a taker that judged
 * it stale is deciding. Resolves with the gate's token, or undefined when the wait ran out.
 */
export async function enterOwnGate(
  gate: string,
  context: TakeoverContext,
  waitAtMostMs: number,
): Promise<string | undefined> {
  const deadline = performance.now() + waitAtMostMs;
  for (let pause = 2; performance.now() < deadline; pause = Math.min(pause * 2, 50)) {
    const entered = await enterGate(gate, { ...context, depth: 0 });
    if (entered) return entered.token;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return undefined;
}
