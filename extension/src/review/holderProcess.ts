// Which machine a lock's holder runs on, and whether it still runs: what lets a waiter take the lock
// of a holder that is gone at once, and never the lock of one that runs (folderLock.ts, rule 3).
// "This machine" is a boot of one kernel and one PID namespace, as Linux's /proc tells them: a
// hostname is not enough, since two containers on one kernel may share it and never see each
// other's pids. Where /proc does not tell, nothing is known, and a lock is judged only by watching it.

import { readFileSync, readlinkSync, statSync } from 'fs';

/** A pid's process: still the one that wrote the record, gone, or not knowable from here. */
export type HolderState = 'running' | 'gone' | 'unknown';

/** What a lock record says about the process that wrote it, beyond its pid. */
export interface HolderIdentity {
  readonly pid: number;
  /** This machine as `machineOfThisProcess` names it; absent where the writer could not tell. */
  readonly machine?: string;
  /** When the process started, in clock ticks since boot; absent where the writer could not tell. */
  readonly started?: string;
}

/** Where this kernel's boot id is: the same for every container on one kernel, new at every boot. */
const BOOT_ID = '/proc/sys/kernel/random/boot_id';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let cached: { readonly machine?: string; readonly started?: string; readonly procIsOurs: boolean } | undefined;

function facts(): NonNullable<typeof cached> {
  cached ??= {
    machine: readMachine(),
    started: startOf('self'),
    // /proc may be the mount of another PID namespace (unshare --pid without --mount-proc): then
    // /proc/<pid> is not our pid's process, and only kill() can be believed.
    procIsOurs: readOr(() => readlinkSync('/proc/self')) === String(process.pid),
  };
  return cached;
}

/** `boot:<boot id>/pid-ns:<inode>`, or undefined off Linux or where /proc is hidden. */
export function machineOfThisProcess(): string | undefined {
  return facts().machine;
}

/** This process's start (clock ticks since boot), for its lock records. */
export function startOfThisProcess(): string | undefined {
  return facts().started;
}

/**
 * Whether the process a record names still runs. Known only when the record names this machine:
 * then kill(pid, 0) decides (EPERM is another user's running process, not a dead one), and a pid
 * given again to a newer process, or to a zombie, counts as gone when /proc shows it.
 * `holdsToken`: for a record of this very process, whether the file is one it still holds.
 */
export function holderState(holder: HolderIdentity, holdsToken: () => boolean): HolderState {
  const here = facts();
  if (here.machine === undefined || holder.machine !== here.machine) return 'unknown';
  if (holder.pid === process.pid) {
    // Our own pid on our own machine: written by this process, unless by an earlier one of that pid.
    if (holder.started !== undefined && here.started !== undefined && holder.started !== here.started) return 'gone';
    return holdsToken() ? 'running' : 'gone';
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
    // EPERM: it runs as another user. Anything else says nothing about it.
    return 'running';
  }
  if (!here.procIsOurs) return 'running';
  const stat = readOr(() => readFileSync(`/proc/${holder.pid}/stat`, 'latin1'));
  if (stat === undefined) return 'running';
  const fields = fieldsAfterName(stat);
  if (fields[0] === 'Z' || fields[0] === 'X') return 'gone';
  return holder.started !== undefined && fields[19] !== undefined && fields[19] !== holder.started ? 'gone' : 'running';
}

function readMachine(): string | undefined {
  const boot = readOr(() => readFileSync(BOOT_ID, 'latin1').trim());
  const namespace = readOr(() => statSync('/proc/self/ns/pid', { bigint: true }).ino);
  return boot !== undefined && UUID.test(boot) && namespace !== undefined
    ? `boot:${boot}/pid-ns:${namespace}`
    : undefined;
}

/** Field 22 of /proc/<pid>/stat, starttime. */
function startOf(pid: string): string | undefined {
  const stat = readOr(() => readFileSync(`/proc/${pid}/stat`, 'latin1'));
  const started = stat === undefined ? undefined : fieldsAfterName(stat)[19];
  return started !== undefined && /^\d{1,20}$/.test(started) ? started : undefined;
}

/** The fields after `pid (name)`, from the state on: the name may hold spaces and parentheses. */
function fieldsAfterName(stat: string): string[] {
  return stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .split(' ');
}

function readOr<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
