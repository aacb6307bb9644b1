// The storage folder's lock: a running holder in another process is waited for (another user's
// too), one that is gone is not (a dead pid, a zombie, a pid given again, this process's own
// leftover), one no one here can check is watched for the bound; a holder that is never done
// leaves a clear error rather than a hang, and a holder whose lock was taken from it, while it
// held it or while it was letting go, says so instead of reporting success.

import { spawn } from 'child_process';
import * as fs from 'fs';
import type { PathLike } from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  FolderLockLostError,
  LOCK_FILE,
  setFolderLockTimingForTests,
  withFolderLock,
} from '../../extension/src/review/folderLock';
import { startOfThisProcess } from '../../extension/src/review/holderProcess';
import { endMarkerFor } from '../../extension/src/review/lockFile';
import { DEAD_PID, lockRecord, OTHER_MACHINE } from '../support/lockRecords';
import { until } from '../support/until';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-lock-'))));
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, LOCK_FILE);
/** A lock as a window of this machine writes it, unless `machine` says otherwise. */
const holdAs = (pid: number, token = 'theirs', machine?: string | null) =>
  fs.writeFileSync(lockFile(), lockRecord(pid, token, machine));

/**
 * Takes the lock while another holds it: it is tried twice (made with O_EXCL), found held and
 * tried again rather than taken, and the work runs only once the holder let go.
 */
async function waitsForHolder(): Promise<void> {
  const order: string[] = [];
  const tries = jest.spyOn(fs.promises, 'open');
  const ran = withFolderLock(dir, async () => void order.push('ran'));
  try {
    await until(
      () => tries.mock.calls.filter(([file, flags]) => file === lockFile() && flags === 'wx').length >= 2,
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
}

it('waits for another live process to let go, then runs', async () => {
  holdAs(process.ppid);
  await waitsForHolder();
});

it('takes over a lock whose process is gone, however fresh it is', async () => {
  holdAs(DEAD_PID);
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('waits for a holder that runs as another user (kill gives EPERM)', async () => {
  holdAs(DEAD_PID);
  const kill = process.kill.bind(process);
  jest.spyOn(process, 'kill').mockImplementation((pid: number, signal?: string | number) => {
    if (pid === DEAD_PID) throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    return kill(pid, signal);
  });
  await waitsForHolder();
});

it('takes over at once a lock this process left behind and no longer holds, or one whose pid a newer process has', async () => {
  const started = startOfThisProcess();
  fs.writeFileSync(lockFile(), JSON.stringify({ ...JSON.parse(lockRecord(process.pid, 'f0f0f0f0f0f0f0f0')), started }));
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  if (started === undefined) {
    console.log(
      'This system has no /proc/<pid>/stat: a pid given again to a newer process cannot be told from its first.',
    );
    return;
  }
  // The parent runs, but it is not the process of that name that started at tick 1.
  fs.writeFileSync(
    lockFile(),
    JSON.stringify({ ...JSON.parse(lockRecord(process.ppid, 'f1f1f1f1f1f1f1f1')), started: '1' }),
  );
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('takes over at once a lock whose process is a zombie', async () => {
  // sh starts a child that exits a second later, once sh has become a sleep that never reaps it.
  const shell = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const zombie = Number(
      await new Promise<string>((resolve) => shell.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))),
    );
    await until(
      () => fs.existsSync(`/proc/${zombie}/stat`) && fs.readFileSync(`/proc/${zombie}/stat`, 'latin1').includes(') Z'),
      `process ${zombie} to be a zombie`,
    );
    holdAs(zombie);
    await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  } finally {
    shell.kill('SIGKILL');
  }
});

it('watches a lock no one here can check, and takes it once it has not changed for the bound', async () => {
  const restore = setFolderLockTimingForTests({ staleAfterMs: 300, refreshEveryMs: 15 });
  try {
    for (const machine of [OTHER_MACHINE, null]) {
      holdAs(DEAD_PID, 'b0b0b0b0b0b0b0b0', machine);
      const started = performance.now();
      await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    }
  } finally {
    restore();
  }
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

  /** What a taker does to a lock it judged abandoned: removes it, and another window makes its own. */
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

it("a holder that pauses while letting go leaves the next holder's lock alone", async () => {
  const BOUND_MS = 400;
  const restore = setFolderLockTimingForTests({ staleAfterMs: BOUND_MS, refreshEveryMs: BOUND_MS / 10 });
  let token = '';
  let paused = false;
  const open = fs.promises.open.bind(fs.promises);
  jest.spyOn(fs.promises, 'open').mockImplementation((async (
    file: PathLike,
    flags?: string | number,
    mode?: number,
  ) => {
    const handle = await open(file, flags, mode);
    if (file !== lockFile() || paused || !token || !fs.existsSync(endMarkerFor(lockFile(), token))) return handle;
    paused = true;
    const close = handle.close.bind(handle);
    handle.close = async () => {
      await close();
      // The holder has read its lock behind its end marker, and stops (SIGSTOP, a suspend) for more
      // than the bound. Meanwhile a window that cannot check it judged it abandoned by watching it,
      // removed its end marker and its lock, and made its own.
      const pausedAt = performance.now();
      await until(() => performance.now() - pausedAt > BOUND_MS, 'a pause longer than the bound');
      fs.rmSync(endMarkerFor(lockFile(), token));
      fs.rmSync(lockFile());
      holdAs(DEAD_PID, 'f00df00df00df00d', OTHER_MACHINE);
    };
    return handle;
  }) as typeof fs.promises.open);
  try {
    const committed = withFolderLock(dir, async () => {
      token = JSON.parse(fs.readFileSync(lockFile(), 'utf8')).token;
    });
    await expect(committed).rejects.toThrow(FolderLockLostError);
    await expect(committed).rejects.toThrow(/was replaced by another window while this window held it/);
    expect(paused).toBe(true);
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).token).toBe('f00df00df00df00d');
  } finally {
    restore();
  }
});
