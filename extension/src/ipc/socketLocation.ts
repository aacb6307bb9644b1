// Where a window's socket lives. Each extension-host process listens on a socket of its own
// (old hosts linger after a reload), and a stable per-window link points at the newest one, so
// the path that terminals already hold keeps working after a reload.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Unix socket paths are limited to 104–108 bytes; keep well under that. */
const MAX_SOCKET_PATH = 100;

export interface SocketLocation {
  /** What terminals get in REDLINE_IPC_PATH: stable for the window across reloads. */
  readonly stablePath: string;
  /** What this process listens on. */
  readonly ownPath: string;
  readonly directory: string | undefined;
}

export function socketLocation(windowKey: string, pid = process.pid): SocketLocation {
  if (process.platform === 'win32') {
    // Named pipes live in their own namespace with no permissions to set; one name per window.
    const pipe = `\\\\.\\pipe\\redline-${windowKey}`;
    return { stablePath: pipe, ownPath: pipe, directory: undefined };
  }
  const directory = privateSocketDirectory();
  return {
    stablePath: path.join(directory, `${windowKey}.sock`),
    ownPath: path.join(directory, `${windowKey}-${pid}.sock`),
    directory,
  };
}

/**
 * A directory only this user can enter: $XDG_RUNTIME_DIR/redline, or <tmp>/redline-<uid>.
 * Refuses a directory that another user owns, that is a symlink or not a directory, or whose
 * mode cannot be made 0700, since whoever controls it could swap our socket for theirs. When
 * every such name is taken (another user can create /tmp/redline-<uid> first), falls back to a
 * fresh mkdtemp directory: its name is unguessable, so it cannot be taken in advance.
 */
export function privateSocketDirectory(env: NodeJS.ProcessEnv = process.env, uid: number = process.getuid?.() ?? 0): string {
  const candidates = [
    env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'redline') : undefined,
    path.join(os.tmpdir(), `redline-${uid}`),
    `/tmp/redline-${uid}`,
  ].filter((dir): dir is string => dir !== undefined && dir.length + 40 < MAX_SOCKET_PATH);
  for (const dir of candidates) {
    try {
      ensurePrivateDirectory(dir, uid);
      return dir;
    } catch {
      // Try the next candidate.
    }
  }
  return freshPrivateDirectory(uid);
}

function ensurePrivateDirectory(dir: string, uid: number): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || stat.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
  if (stat.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((stat.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
  if ((fs.lstatSync(dir).mode & 0o777) !== 0o700) throw new Error(`${dir} cannot be made private`);
}

/**
 * mkdtemp creates the directory 0700 under a random name, in the first parent that nobody else
 * can tamper with: owned by root or this user, and sticky if others may write to it (so no one
 * can rename our directory away). /tmp is that on every Unix; never failing matters more than the
 * last check, so the temp dir is used even when it fails it.
 */
function freshPrivateDirectory(uid: number): string {
  const parents = [os.tmpdir(), '/tmp'].filter((dir) => dir.length + 50 < MAX_SOCKET_PATH);
  const safe = parents.find((parent) => isSafeParent(parent, uid)) ?? os.tmpdir();
  return fs.mkdtempSync(path.join(safe, 'redline-'));
}

export function isSafeParent(parent: string, uid: number): boolean {
  try {
    const stat = fs.statSync(parent);
    const ownerOk = stat.uid === 0 || stat.uid === uid;
    const othersMayWrite = (stat.mode & 0o022) !== 0;
    const sticky = (stat.mode & 0o1000) !== 0;
    return stat.isDirectory() && ownerOk && (!othersMayWrite || sticky);
  } catch {
    return false;
  }
}

/** Atomically points the stable path at this process's socket (rename replaces the old link). */
export function publishStableLink(location: SocketLocation): void {
  if (location.stablePath === location.ownPath) return;
  const temporary = `${location.stablePath}.${process.pid}.tmp`;
  fs.rmSync(temporary, { force: true });
  fs.symlinkSync(location.ownPath, temporary);
  fs.renameSync(temporary, location.stablePath);
}

/** Removes the stable link only while it still points at this process's socket. */
export function withdrawStableLink(location: SocketLocation): void {
  if (location.stablePath === location.ownPath) return;
  try {
    if (fs.readlinkSync(location.stablePath) === location.ownPath) fs.unlinkSync(location.stablePath);
  } catch {
    // Gone, or replaced by a newer host: leave it.
  }
}

/**
 * Removes sockets left by extension hosts that died without cleaning up (a crash, a kill -9),
 * and stable links that point at nothing. Only files named for a process that no longer exists
 * are touched, so other windows' live sockets are safe.
 */
export function removeDeadHostSockets(directory: string): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(directory)) {
    const file = path.join(directory, name);
    const owner = /^[0-9a-f]+-(\d+)\.sock$/.exec(name);
    const danglingLink = /^[0-9a-f]+\.sock$/.test(name) && !fs.existsSync(file);
    if ((owner && !isProcessAlive(Number(owner[1]))) || danglingLink) {
      fs.rmSync(file, { force: true });
      removed.push(name);
    }
  }
  return removed;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
