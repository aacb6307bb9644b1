// Ending a lock file behind its end marker: of many takers that judged one lock abandoned, one
// removes it; one that comes late, or finds it refreshed, leaves the lock there alone; a marker
// left by a process that died is cleared, one of a running process is waited for; and one that
// stayed behind its marker too long removes nothing.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  createLock,
  endMarkerFor,
  LockWatch,
  newHolder,
  readLock,
  type LockSnapshot,
} from '../../extension/src/review/lockFile';
import { endLockFile, type TakeoverOutcome } from '../../extension/src/review/lockTakeover';
import { DEAD_PID, writeLockRecord as write } from '../support/lockRecords';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-takeover-'));
  file = path.join(dir, '.lock');
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const context = () => ({ watch: new LockWatch(), staleAfterMs: 20_000 });

async function judged(): Promise<LockSnapshot> {
  const snapshot = await readLock(file);
  if (!snapshot) throw new Error('no lock to judge');
  return snapshot;
}

it('of eight takers of one abandoned lock, one removes it and the others leave the next holder alone', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const abandoned = await judged();
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, async (): Promise<TakeoverOutcome> => {
      const outcome = await endLockFile(file, abandoned, context());
      // Whoever gets through makes the next lock at once, as a waiter does.
      if (outcome === 'ended') await createLock(file, newHolder());
      return outcome;
    }),
  );
  expect(outcomes.filter((outcome) => outcome === 'ended')).toHaveLength(1);
  expect((await readLock(file))?.holder?.pid).toBe(process.pid);
  expect(fs.readdirSync(dir)).toEqual(['.lock']);
});

it('a taker that comes after the abandoned lock was replaced leaves the new one', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const abandoned = await judged();
  expect(await endLockFile(file, abandoned, context())).toBe('ended');
  const holder = newHolder();
  await createLock(file, holder);
  expect(await endLockFile(file, abandoned, context())).toBe('changed');
  expect((await readLock(file))?.holder?.token).toBe(holder.token);
  expect(fs.readdirSync(dir)).toEqual(['.lock']);
});

it('a lock refreshed since it was judged is left alone', async () => {
  write(file, process.ppid, '5ca1ab1e5ca1ab1e');
  const old = Date.now() / 1000 - 3600;
  fs.utimesSync(file, old, old);
  const judgedOld = await judged();
  fs.utimesSync(file, new Date(), new Date());
  expect(await endLockFile(file, judgedOld, context())).toBe('changed');
  expect(fs.existsSync(file)).toBe(true);
});

it('waits while a live process is at the end marker, and clears the marker of one that died there', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const abandoned = await judged();
  const marker = endMarkerFor(file, abandoned.token);
  write(marker, process.ppid, 'a11ea11ea11ea11e');
  expect(await endLockFile(file, abandoned, context())).toBe('busy');
  expect(fs.existsSync(file)).toBe(true);

  write(marker, DEAD_PID, 'dead0000dead0000');
  // The first try clears the dead taker's marker; the next gets through it.
  expect(await endLockFile(file, abandoned, context())).toBe('busy');
  expect(fs.existsSync(marker)).toBe(false);
  expect(await endLockFile(file, abandoned, context())).toBe('ended');
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('a taker that stayed behind its end marker for half the bound removes nothing', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const abandoned = await judged();
  // The steady clock jumps a whole bound while the taker reads the lock again: the process was stopped there.
  const now = performance.now.bind(performance);
  const marker = endMarkerFor(file, abandoned.token);
  jest.spyOn(performance, 'now').mockImplementation(() => now() + (fs.existsSync(marker) ? 20_000 : 0));
  expect(await endLockFile(file, abandoned, context())).toBe('changed');
  expect(fs.readdirSync(dir)).toEqual(['.lock']);
});

it('a token that cannot be part of a file name is never used as one: the end marker is named by a digest', async () => {
  write(file, DEAD_PID, '../../escape');
  const snapshot = await judged();
  expect(snapshot.holder?.pid).toBe(DEAD_PID);
  expect(snapshot.token).toMatch(/^x[0-9a-f]{32}$/);
  expect(await endLockFile(file, snapshot, context())).toBe('ended');
  expect(fs.readdirSync(dir)).toEqual([]);
});
