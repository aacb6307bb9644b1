// The folder lock when two windows' wall clocks disagree by an hour (an NTP step, a resume from
// sleep, a clock set by hand): a window whose clock is off waits for a running holder past the
// bound, and a holder whose clock is off is waited for. Each window is a process of its own, one
// of them this test's with its clock shifted.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { setFolderLockTimingForTests, withFolderLock } from '../../extension/src/review/folderLock';
import { bundleLockWindow, LockWindow } from '../integration/lockWindow';
import { shiftWallClock } from '../support/shiftedClock';
import { until } from '../support/until';

const BOUND_MS = 1_500;
const TIMING = { staleAfterMs: BOUND_MS, refreshEveryMs: BOUND_MS / 20, waitAtMostMs: 40 * BOUND_MS };
const HOUR = 3_600_000;

let work: string;
let bundle: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-lock-clock-'));
  bundle = bundleLockWindow(work);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let folder: string;
let restoreTiming: () => void;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(work, 'folder-'));
  restoreTiming = setFolderLockTimingForTests(TIMING);
});
afterEach(() => restoreTiming());

/** Resolves once this process's steady clock says `ms` have passed since `since`. */
const passed = (since: number, ms: number) => until(() => performance.now() - since > ms, `${ms} ms to pass`);

describe.each([
  ['ahead', HOUR],
  ['behind', -HOUR],
])('a window whose clock is an hour %s', (_direction, shift) => {
  let undoShift: () => void;
  beforeEach(() => (undoShift = shiftWallClock(shift)));
  afterEach(() => undoShift());

  it('waits for a running holder past twice the bound, and gets the lock when it lets go', async () => {
    const holder = await LockWindow.start(bundle, { folder, timing: TIMING });
    try {
      holder.send('hold');
      await holder.next('holding');
      const events: string[] = [];
      const waitingSince = performance.now();
      const waited = withFolderLock(folder, async () => void events.push('waiter in'));
      await passed(waitingSince, 2 * BOUND_MS);
      events.push('holder out');
      holder.send('release');
      expect(await holder.next('released')).toEqual({ event: 'released' });
      await waited;
      expect(events).toEqual(['holder out', 'waiter in']);
    } finally {
      await holder.close();
    }
  }, 60_000);

  it('is waited for while it holds past twice the bound, and its hold succeeds', async () => {
    const waiter = await LockWindow.start(bundle, { folder, timing: TIMING });
    try {
      const held = withFolderLock(folder, async (hold) => {
        waiter.send('take');
        const since = performance.now();
        await passed(since, 2 * BOUND_MS);
        expect(waiter.seen.map(({ event }) => event)).toEqual(['ready']);
        hold.assertHeld();
      });
      await expect(held).resolves.toBeUndefined();
      await waiter.next('entered');
      expect(await waiter.next('released')).toEqual({ event: 'released' });
    } finally {
      await waiter.close();
    }
  }, 60_000);
});
