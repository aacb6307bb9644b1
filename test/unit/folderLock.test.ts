// The storage folder's lock: a live holder in another process is waited for, one that is gone is
// not, and a holder that is never done leaves a clear error rather than a hang.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LOCK_FILE, withFolderLock } from '../../extension/src/review/folderLock';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-lock-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const holdAs = (pid: number) => fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid, host: os.hostname(), token: 'theirs' }));

it('waits for another live process to let go, then runs', async () => {
  holdAs(process.ppid);
  const order: string[] = [];
  const ran = withFolderLock(dir, async () => void order.push('ran'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  order.push('released');
  fs.rmSync(path.join(dir, LOCK_FILE));
  await ran;
  expect(order).toEqual(['released', 'ran']);
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('takes over a lock whose process is gone', async () => {
  // A pid past the kernel's default pid_max: no process has it.
  holdAs(4_194_304 + 17);
  await expect(withFolderLock(dir, async () => 'ran')).resolves.toBe('ran');
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('runs the same process\'s work one at a time, in order', async () => {
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
});
