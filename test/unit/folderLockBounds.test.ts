// The folder lock's bound, made short for the test: a holder that keeps refreshing is never taken
// over however long it holds; a lock no one here can check (another machine's, or not JSON) is
// abandoned once it has not changed for the bound, whatever its mtime says; and a holder that
// could not refresh stops writing.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  FolderLockLostError,
  LOCK_FILE,
  setFolderLockTimingForTests,
  withFolderLock,
} from '../../extension/src/review/folderLock';
import { DEAD_PID, lockRecord, OTHER_MACHINE } from '../support/lockRecords';
import { shiftWallClock } from '../support/shiftedClock';
import { until } from '../support/until';

const BOUND_MS = 1_500;

let dir: string;
let restore: () => void;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-lock-bound-'));
  restore = setFolderLockTimingForTests({
    staleAfterMs: BOUND_MS,
    refreshEveryMs: BOUND_MS / 20,
    waitAtMostMs: 10 * BOUND_MS,
  });
});
afterEach(() => {
  restore();
  fs.rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, LOCK_FILE);
/** The same folder by another spelling: this process's queue does not order the two, so they meet at the lock file as two windows do. */
const otherWindow = <T>(work: () => Promise<T>) => withFolderLock(`${dir}${path.sep}.`, work);
const hour = 3600;

it('a live holder past the bound is not taken over, and its lock stays fresh', async () => {
  const events: string[] = [];
  let second: Promise<void> | undefined;
  await withFolderLock(dir, async (hold) => {
    events.push('first in');
    const madeAt = fs.statSync(lockFile()).mtimeMs;
    const waitingSince = Date.now();
    second = otherWindow(async () => void events.push('second in'));
    // Twice the bound while the other window waits at the lock.
    await until(() => Date.now() - waitingSince > 2 * BOUND_MS, 'twice the bound to pass while the holder holds');
    expect(fs.statSync(lockFile()).mtimeMs).toBeGreaterThan(madeAt);
    hold.assertHeld();
    events.push('first out');
  });
  await second;
  expect(events).toEqual(['first in', 'first out', 'second in']);
  expect(fs.readdirSync(dir)).toEqual([]);
}, 60_000);

it.each([
  ['an hour in the future', 1],
  ['an hour old', -1],
])(
  "another machine's lock dated %s is abandoned once it has not changed for the bound",
  async (_when, sign) => {
    fs.writeFileSync(lockFile(), lockRecord(DEAD_PID, 'c0ffee00c0ffee00', OTHER_MACHINE));
    const time = Date.now() / 1000 + sign * hour;
    fs.utimesSync(lockFile(), time, time);
    const started = performance.now();
    await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
    expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS);
    expect(fs.readdirSync(dir)).toEqual([]);
  },
  60_000,
);

it('a lock that is not JSON is abandoned once it has not changed for the bound, however old it is', async () => {
  fs.writeFileSync(lockFile(), '{"pid": 12');
  const old = Date.now() / 1000 - hour;
  fs.utimesSync(lockFile(), old, old);
  const started = performance.now();
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(performance.now() - started).toBeGreaterThanOrEqual(BOUND_MS);
  expect(fs.readdirSync(dir)).toEqual([]);
}, 60_000);

it('a holder that could not refresh for half the bound stops before writing', async () => {
  const committed = withFolderLock(dir, async (hold) => {
    hold.assertHeld();
    // The thread held, as a busy extension host might: no refresh can run meanwhile.
    for (const end = Date.now() + BOUND_MS * 0.6; Date.now() < end;);
    hold.assertHeld();
  });
  await expect(committed).rejects.toThrow(FolderLockLostError);
  await expect(committed).rejects.toThrow(`could not refresh its lock ${lockFile()} for`);
  // Nobody took it meanwhile, so it was let go as usual.
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('a holder whose wall clock moved on past half the bound (a sleep, which stops the steady clock) stops before writing', async () => {
  let undo: (() => void) | undefined;
  const committed = withFolderLock(dir, async (hold) => {
    hold.assertHeld();
    // Resumed from sleep: the wall clock says time passed that the steady clock did not count,
    // and a window on another machine counted it.
    undo = shiftWallClock(BOUND_MS);
    hold.assertHeld();
  });
  try {
    await expect(committed).rejects.toThrow(`could not refresh its lock ${lockFile()} for`);
  } finally {
    undo?.();
  }
});
