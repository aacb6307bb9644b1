// The folder lock's bound, made short for the test: a holder that keeps refreshing is never taken
// over however long it holds; a lock dated in the future, or one that is not JSON, becomes stale
// once it has not changed for the bound; and a holder that could not refresh stops writing.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  FolderLockLostError,
  LOCK_FILE,
  setFolderLockTimingForTests,
  withFolderLock,
} from '../../extension/src/review/folderLock';
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

it('a lock dated in the future is stale once it has not changed for the bound', async () => {
  fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'c0ffee00c0ffee00' }));
  const future = Date.now() / 1000 + hour;
  fs.utimesSync(lockFile(), future, future);
  const started = Date.now();
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(Date.now() - started).toBeGreaterThanOrEqual(BOUND_MS);
  expect(fs.readdirSync(dir)).toEqual([]);
}, 60_000);

it('a lock that is not JSON is stale once it has not changed for the bound', async () => {
  fs.writeFileSync(lockFile(), '{"pid": 12');
  const started = Date.now();
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(Date.now() - started).toBeGreaterThanOrEqual(BOUND_MS);
  expect(fs.readdirSync(dir)).toEqual([]);
}, 60_000);

it('a lock that is not JSON and older than the bound is taken at once', async () => {
  restore();
  restore = setFolderLockTimingForTests({ staleAfterMs: 60_000 });
  fs.writeFileSync(lockFile(), '');
  const old = Date.now() / 1000 - hour;
  fs.utimesSync(lockFile(), old, old);
  const started = Date.now();
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(Date.now() - started).toBeLessThan(30_000);
});

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
