// Child processes for the e2e harness: bounded runs, process-group kills, and
// a last-chance kill of everything still alive when this Node process exits.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @type {Set<number>} process-group ids to kill if we exit without stopping them */
const liveGroups = new Set();
/** @type {Set<string>} temp dirs to remove if we exit without removing them */
const tempDirs = new Set();
let exitHookInstalled = false;

function cleanUpNow() {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
  liveGroups.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', cleanUpNow);
  // A signal skips 'exit' handlers unless someone handles it, so handle it,
  // clean up, and re-raise it with the default action restored.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(signal, () => {
      cleanUpNow();
      process.kill(process.pid, signal);
    });
  }
}

/**
 * What every process a run starts inherits from it, for servers started with an environment of
 * their own: the run's marker (test/e2e/run.mjs finds leftovers by it) and its folder of sockets
 * and discovery files (REDLINE_RUNTIME_DIR), so that no other window on this machine is found.
 * @returns {Record<string, string>}
 */
export function runEnvironment() {
  /** @type {Record<string, string>} */
  const env = {};
  for (const name of ['REDLINE_E2E_RUN', 'REDLINE_RUNTIME_DIR']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  return env;
}

/**
 * A fresh temp dir that is removed when this process exits, even on Ctrl+C,
 * unless removeTempDir() removed it first.
 * @param {string} prefix e.g. 'redline-code-server-'
 */
export function makeTempDir(prefix) {
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(/** @type {string} */ dir) {
  tempDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Registers a detached child's process group for the exit-time kill. */
export function trackGroup(/** @type {number} */ pgid) {
  installExitHook();
  liveGroups.add(pgid);
}

export function untrackGroup(/** @type {number} */ pgid) {
  liveGroups.delete(pgid);
}

/**
 * @param {number} pgid
 * @param {NodeJS.Signals} signal
 */
export function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Whether `pid` is a running process; a zombie (exited, not yet reaped) counts as gone. */
export function isAlive(/** @type {number} */ pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Every process below `rootPid`, read from /proc. Some of code-server's
 * children (terminal shells) start their own session, so killing the process
 * group alone can miss them.
 * @param {number} rootPid
 * @returns {number[]}
 */
export function descendants(rootPid) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Field 4 (ppid) comes after the parenthesised command name, which may contain spaces.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  /** @type {number[]} */
  const found = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    for (const child of children.get(/** @type {number} */ (queue.shift())) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Processes whose command line contains `needle` (used to prove nothing was left behind). */
export function processesMatching(/** @type {string} */ needle) {
  /** @type {{pid: number, cmd: string}[]} */
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmd.includes(needle)) found.push({ pid: Number(entry), cmd });
    } catch {
      // The process exited while we looked.
    }
  }
  return found;
}

/**
 * Runs a command to completion in its own process group, killing the group if
 * it outlives `timeoutMs`. Output goes to `logFile` (if given) and the last
 * lines are kept for error messages.
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs: number, logFile?: string}} options
 * @returns {Promise<{code: number | null, signal: NodeJS.Signals | null, timedOut: boolean, tail: string}>}
 */
export function runBounded(command, args, { cwd, env, timeoutMs, logFile }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = /** @type {number} */ (child.pid);
    if (child.pid !== undefined) trackGroup(pid);
    /** @type {string[]} */
    let tail = [];
    const onData = (/** @type {Buffer} */ chunk) => {
      if (logFile) appendFileSync(logFile, chunk);
      tail = tail.concat(chunk.toString('utf8').split('\n')).slice(-40);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      untrackGroup(pid);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(pid, 'SIGKILL'); // Anything the command left running in its group.
      untrackGroup(pid);
      resolve({ code, signal, timedOut, tail: tail.join('\n').trim() });
    });
  });
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for `promise` at most `ms`; true if it settled in time. Unlike racing
 * sleep(), it leaves no timer behind to hold the process open.
 * @param {Promise<unknown>} promise @param {number} ms
 * @returns {Promise<boolean>}
 */
export function settlesWithin(promise, ms) {
  return new Promise((resolveSettled) => {
    const timer = setTimeout(() => resolveSettled(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolveSettled(true);
    };
    promise.then(done, done);
  });
}
