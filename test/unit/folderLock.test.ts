// The storage folder's lock: a live holder in another process is waited for, one that is gone is
// not, a holder that is never done leaves a clear error rather than a hang, and a holder whose lock
// was taken from it says so instead of reporting success.

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

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-lock-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const lockFile = () => path.join(dir, LOCK_FILE);
const holdAs = (pid: number, token = 'theirs') =>
  fs.writeFileSync(lockFile(), JSON.stringify({ pid, host: os.hostname(), token }));
/** A pid past the kernel's default pid_max: no process has it. */
const DEAD_PID = 4_194_304 + 17;

it('waits for another live process to let go, then runs', async () => {
  holdAs(process.ppid);
  const order: string[] = [];
  const tries = jest.spyOn(fs.promises, 'open');
  const ran = withFolderLock(dir, async () => void order.push('ran'));
  try {
    // Tried, found held by a live process, and tried again: it waits rather than takes it.
    await until(
      () => tries.mock.calls.filter(([file]) => file === path.join(dir, LOCK_FILE)).length >= 2,
      'the lock to be tried twice',
    );
  } finally {
    tries.mockRestore();
  }
  order.push('released');
  fs.rmSync(lockFile());
  await ran;
  expect(order).toEqual(['released', 'ran']);
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('takes over a lock whose process is gone, however fresh it is', async () => {
  holdAs(DEAD_PID);
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(fs.readdirSync(dir)).toEqual([]);
});

it("runs the same process's work one at a time, in order", async () => {
  const events: string[] = [];
  await Promise.all(
    [1, 2, 3].map((n) =>
      withFolderLock(dir, async () => {
        events.push(`start ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        events.push(`end ${n}`);
      }),
    ),
  );
  expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
});

it('a failing holder releases the lock for the next', async () => {
  await expect(withFolderLock(dir, async () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
  await expect(withFolderLock(dir, async () => 'next')).resolves.toBe('next');
  expect(fs.readdirSync(dir)).toEqual([]);
});

describe('a holder whose lock was taken from it', () => {
  let restore: () => void;
  beforeEach(() => (restore = setFolderLockTimingForTests({ refreshEveryMs: 20 })));
  afterEach(() => restore());

  /** What a taker does to a lock it judged stale: removes it, and another window makes its own. */
  const takeOver = () => {
    fs.rmSync(lockFile());
    holdAs(process.ppid, 'aaaaaaaaaaaaaaaa');
  };

  it('fails its commit, though its work resolved, and leaves the new holder its lock', async () => {
    const committed = withFolderLock(dir, async () => {
      takeOver();
      return 'written';
    });
    await expect(committed).rejects.toThrow(FolderLockLostError);
    await expect(committed).rejects.toThrow(/was replaced by another window while this window held it/);
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).token).toBe('aaaaaaaaaaaaaaaa');
  });

  it('is told before its next write once its refresh finds the lock gone', async () => {
    const writes: string[] = [];
    const committed = withFolderLock(dir, async (hold) => {
      hold.assertHeld();
      writes.push('first');
      takeOver();
      await until(() => {
        try {
          hold.assertHeld();
          return false;
        } catch {
          return true;
        }
      }, 'the hold to be found lost');
      hold.assertHeld();
      writes.push('second');
    });
    await expect(committed).rejects.toThrow(/replaced by another window/);
    expect(writes).toEqual(['first']);
  }, 30_000);
});

it('a wait that runs out names the file to delete', async () => {
  // A live holder that keeps its lock fresh, as a window stuck in a commit would.
  holdAs(process.ppid);
  const refresher = setInterval(() => fs.utimesSync(lockFile(), new Date(), new Date()), 20);
  const restore = setFolderLockTimingForTests({ waitAtMostMs: 300 });
  try {
    await expect(withFolderLock(dir, async () => 'ran')).rejects.toThrow(
      `for the lock ${lockFile()}, which another Redline window holds (process ${process.ppid} on ${os.hostname()}). If no other Redline window is open on this folder, delete that file.`,
    );
  } finally {
    restore();
    clearInterval(refresher);
  }
});
