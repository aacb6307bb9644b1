// The folder lock between two PID namespaces of one kernel (two containers, a devcontainer beside
// the host) that share a storage folder and a hostname: each sees the other's pid as a pid of its
// own that does not run, or runs as something else. So neither may judge the other's lock by its
// pid: a running holder across the boundary is waited for past the bound, and one that died there
// is taken only once its lock has not changed for the bound. The second namespace is made with
// `unshare --pid --fork` (as root, as in CI; elsewhere inside a user namespace when the kernel
// allows it), its window given a pid that no process has outside it.

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { setFolderLockTimingForTests, withFolderLock } from '../../extension/src/review/folderLock';
import { machineOfThisProcess } from '../../extension/src/review/holderProcess';
import { until } from '../support/until';
import { bundleLockWindow, LockWindow } from './lockWindow';

const BOUND_MS = 1_500;
const TIMING = { staleAfterMs: BOUND_MS, refreshEveryMs: BOUND_MS / 20, waitAtMostMs: 40 * BOUND_MS };

/** `unshare` with the flags this machine allows, or why none works. */
function namespaceCommand(): { readonly unshare?: string[]; readonly why?: string } {
  const base = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc'];
  const tries = process.geteuid?.() === 0 ? [base] : [[...base, '--map-root-user'], base];
  const failures: string[] = [];
  for (const unshare of tries) {
    const probe = spawnSync(unshare[0], [...unshare.slice(1), 'sh', '-c', 'echo 100 > /proc/sys/kernel/ns_last_pid'], {
      encoding: 'utf8',
    });
    if (probe.status === 0) return { unshare };
    failures.push(`${unshare.join(' ')}: ${(probe.error?.message ?? probe.stderr).trim() || `exit ${probe.status}`}`);
  }
  return { why: failures.join('; ') };
}

/** A pid that no process has here, for the window in the other namespace: the one after `last`. */
function freePid(): number {
  const max = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
  for (let pid = max - 2; pid > 300; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('every pid is taken');
}

const { unshare, why } = namespaceCommand();
/** CI runs as root: there the second namespace must be made, and this test must run. */
const required = process.geteuid?.() === 0 || process.env.CI === 'true';

let work: string;
let bundle: string;
let folder: string;
let restoreTiming: () => void;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-lock-ns-'));
  bundle = bundleLockWindow(work);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(work, 'folder-'));
  restoreTiming = setFolderLockTimingForTests(TIMING);
});
afterEach(() => restoreTiming());

/** A window in a new PID namespace, whose pid there is one no process has here; undefined (said why) when none can be made. */
async function windowInAnotherNamespace(): Promise<LockWindow | undefined> {
  if (!unshare) {
    if (required) throw new Error(`A second PID namespace is needed here (root or CI) and could not be made: ${why}`);
    console.log(`No second PID namespace on this machine (${why}): the lock across namespaces is not checked here.`);
    return undefined;
  }
  const pid = freePid();
  const window = await LockWindow.start(bundle, { folder, timing: TIMING }, [
    ...unshare,
    'sh',
    '-c',
    // Not exec'd: the window is the namespace's next pid, after the shell's.
    'echo "$0" > /proc/sys/kernel/ns_last_pid && "$@"; exit $?',
    String(pid - 1),
  ]);
  expect(window.pid).toBe(pid);
  return window;
}

const stepsOf = (window: LockWindow) => window.seen.map(({ event }) => event);
const passed = (since: number, ms: number) => until(() => performance.now() - since > ms, `${ms} ms to pass`);

it('a holder in another PID namespace is waited for past twice the bound, though its pid does not run here', async () => {
  const other = await windowInAnotherNamespace();
  if (!other) return;
  try {
    other.send('hold');
    const { record } = await other.next('holding');
    const holder = JSON.parse(record) as { pid: number; machine?: string };
    expect(() => process.kill(holder.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));

    const events: string[] = [];
    const since = performance.now();
    const waited = withFolderLock(folder, async () => void events.push('here in'));
    await passed(since, 2 * BOUND_MS);
    events.push('there out');
    other.send('release');
    expect(await other.next('released')).toEqual({ event: 'released' });
    await waited;
    expect(events).toEqual(['there out', 'here in']);
    // Its record named its machine: this boot, but another PID namespace.
    expect(holder.machine).toMatch(/^boot:.*\/pid-ns:\d+$/);
    expect(holder.machine).not.toBe(machineOfThisProcess());
  } finally {
    await other.close();
  }
}, 90_000);

it('a holder here is waited for from another PID namespace past twice the bound', async () => {
  const other = await windowInAnotherNamespace();
  if (!other) return;
  try {
    await withFolderLock(folder, async (hold) => {
      other.send('take');
      await passed(performance.now(), 2 * BOUND_MS);
      expect(stepsOf(other)).toEqual(['ready']);
      hold.assertHeld();
    });
    await other.next('entered');
    expect(await other.next('released')).toEqual({ event: 'released' });
  } finally {
    await other.close();
  }
}, 90_000);

it('the lock of a holder that died in another PID namespace is taken once it has not changed for the bound', async () => {
  const other = await windowInAnotherNamespace();
  if (!other) return;
  other.send('hold');
  await other.next('holding');
  await other.kill();
  const since = performance.now();
  await expect(withFolderLock(folder, async () => 'here in')).resolves.toBe('here in');
  expect(performance.now() - since).toBeGreaterThanOrEqual(BOUND_MS);
  expect(fs.readdirSync(folder)).toEqual([]);
}, 90_000);
