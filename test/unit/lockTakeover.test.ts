// Ending a stale lock behind its gate: of many takers that judged one stale lock, one removes it;
// one that comes late, or finds it refreshed, leaves the lock there alone; a gate left by a
// process that died is cleared, one of a live process is waited for.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  createLock,
  gateFor,
  LockWatch,
  newHolder,
  readLock,
  type LockLook,
} from '../../extension/src/review/lockFile';
import { endStaleLock } from '../../extension/src/review/lockTakeover';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-takeover-'));
  file = path.join(dir, '.lock');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const DEAD_PID = 4_194_304 + 17;
const context = () => ({ watch: new LockWatch(), staleAfterMs: 20_000 });
const write = (target: string, pid: number, token: string) =>
  fs.writeFileSync(target, JSON.stringify({ pid, host: os.hostname(), token }));

async function judged(): Promise<LockLook> {
  const look = await readLock(file);
  if (!look) throw new Error('no lock to judge');
  return look;
}

it('of eight takers of one stale lock, one removes it and the others leave the next holder alone', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const stale = await judged();
  const outcomes = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const outcome = await endStaleLock(file, stale, context());
      // Whoever gets through makes the next lock at once, as a waiter does.
      if (outcome === 'ended') await createLock(file, newHolder());
      return outcome;
    }),
  );
  expect(outcomes.filter((outcome) => outcome === 'ended')).toHaveLength(1);
  expect((await readLock(file))?.holder?.pid).toBe(process.pid);
  expect(fs.readdirSync(dir)).toEqual(['.lock']);
});

it('a taker that comes after the stale lock was replaced leaves the new one', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const stale = await judged();
  expect(await endStaleLock(file, stale, context())).toBe('ended');
  const holder = newHolder();
  await createLock(file, holder);
  expect(await endStaleLock(file, stale, context())).toBe('changed');
  expect((await readLock(file))?.holder?.token).toBe(holder.token);
  expect(fs.readdirSync(dir)).toEqual(['.lock']);
});

it('a lock refreshed since it was judged is left alone', async () => {
  write(file, process.ppid, '5ca1ab1e5ca1ab1e');
  const old = Date.now() / 1000 - 3600;
  fs.utimesSync(file, old, old);
  const judgedOld = await judged();
  fs.utimesSync(file, new Date(), new Date());
  expect(await endStaleLock(file, judgedOld, context())).toBe('changed');
  expect(fs.existsSync(file)).toBe(true);
});

it('waits while a live process is at the gate, and clears the gate of one that died there', async () => {
  write(file, DEAD_PID, '5ca1ab1e5ca1ab1e');
  const stale = await judged();
  const gate = gateFor(file, stale.incarnation);
  write(gate, process.ppid, 'a11ea11ea11ea11e');
  expect(await endStaleLock(file, stale, context())).toBe('busy');
  expect(fs.existsSync(file)).toBe(true);

  write(gate, DEAD_PID, 'dead0000dead0000');
  // The first try clears the dead taker's gate; the next gets through it.
  expect(await endStaleLock(file, stale, context())).toBe('busy');
  expect(fs.existsSync(gate)).toBe(false);
  expect(await endStaleLock(file, stale, context())).toBe('ended');
  expect(fs.readdirSync(dir)).toEqual([]);
});

it('a token that cannot be part of a file name is never used as one: the gate is named by a digest', async () => {
  write(file, DEAD_PID, '../../escape');
  const look = await judged();
  expect(look.holder?.pid).toBe(DEAD_PID);
  expect(look.incarnation).toMatch(/^x[0-9a-f]{32}$/);
  expect(await endStaleLock(file, look, context())).toBe('ended');
  expect(fs.readdirSync(dir)).toEqual([]);
});
