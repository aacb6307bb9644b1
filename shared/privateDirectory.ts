// The directory that holds each window's socket and discovery file: only this user can enter it.
// The extension creates it; the MCP server only looks for it (every place the extension may have
// put it, since an assistant's environment need not match the editor's).

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RUNTIME_DIR_ENV } from './environment';
import { realpathOr } from './realpath';

/** Unix socket paths are limited to 104–108 bytes; keep well under that. */
export const MAX_SOCKET_PATH = 100;

const FRESH_PREFIX = 'redline-';

/** The folder REDLINE_RUNTIME_DIR names, when set: then no other place is used or looked in. */
function chosenDirectory(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env[RUNTIME_DIR_ENV];
  return chosen ? path.resolve(chosen) : undefined;
}

/** The named directories, best first: $XDG_RUNTIME_DIR/redline, <tmp>/redline-<uid>, /tmp/redline-<uid>. */
function namedCandidates(env: NodeJS.ProcessEnv, uid: number): string[] {
  const chosen = chosenDirectory(env);
  if (chosen) return [chosen];
  if (process.platform === 'win32') {
    // The per-user temp folder (%LOCALAPPDATA%\Temp) is private to the user by its ACL.
    return [path.join(os.tmpdir(), 'redline')];
  }
  return [
    env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'redline') : undefined,
    path.join(os.tmpdir(), `redline-${uid}`),
    `/tmp/redline-${uid}`,
  ].filter((dir): dir is string => dir !== undefined && dir.length + 40 < MAX_SOCKET_PATH);
}

/**
 * A directory only this user can enter, made if needed. Refuses a directory that another user
 * owns, that is a symlink or not a directory, or whose mode cannot be made 0700, since whoever
 * controls it could swap our socket for theirs. When every such name is taken (another user can
 * create /tmp/redline-<uid> first), falls back to a fresh mkdtemp directory: its name is
 * unguessable, so it cannot be taken in advance.
 */
export function privateDirectory(env: NodeJS.ProcessEnv = process.env, uid: number = currentUid()): string {
  const chosen = chosenDirectory(env);
  if (chosen) {
    // A folder the user chose is used or refused, never replaced by one no one else looks in.
    const refuse = (why: string) => new Error(`${RUNTIME_DIR_ENV} names ${chosen}, which cannot be used: ${why}`);
    if (process.platform !== 'win32' && chosen.length + 40 >= MAX_SOCKET_PATH)
      throw refuse(`a socket path in it would be longer than ${MAX_SOCKET_PATH} characters; choose a shorter path`);
    try {
      ensurePrivateDirectory(chosen, uid);
    } catch (error) {
      throw refuse((error as Error).message);
    }
    return chosen;
  }
  return namedPrivateDirectory(env, uid) ?? freshPrivateDirectory(uid);
}

/** The first named directory that is, or can be made, private to this user; none when all are taken. */
export function namedPrivateDirectory(
  env: NodeJS.ProcessEnv = process.env,
  uid: number = currentUid(),
): string | undefined {
  for (const dir of namedCandidates(env, uid)) {
    try {
      ensurePrivateDirectory(dir, uid);
      return dir;
    } catch {
      // Try the next candidate.
    }
  }
  return undefined;
}

/**
 * `parent/name`, made 0700 if needed, and only if it is a real directory of this user's that no
 * one else may enter; undefined otherwise. For what another user must not be able to plant.
 */
export function privateSubdirectory(parent: string, name: string, uid: number = currentUid()): string | undefined {
  const dir = path.join(parent, name);
  try {
    ensurePrivateDirectory(dir, uid);
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Every existing directory the extension may have chosen that is still private to this user:
 * the named ones and the mkdtemp fallbacks. Nothing is created or changed.
 */
export function existingPrivateDirectories(env: NodeJS.ProcessEnv = process.env, uid: number = currentUid()): string[] {
  const found = new Map<string, string>();
  const consider = (dir: string) => {
    if (!isPrivateDirectory(dir, uid)) return;
    const real = realpathOr(dir);
    if (!found.has(real)) found.set(real, dir);
  };
  for (const dir of namedCandidates(env, uid)) consider(dir);
  if (process.platform !== 'win32' && !chosenDirectory(env)) {
    // Where systemd puts XDG_RUNTIME_DIR: the editor may have it while the assistant's session
    // (tmux started early, sudo, cron) does not.
    consider(`/run/user/${uid}/redline`);
    for (const parent of new Set([os.tmpdir(), '/tmp'])) {
      for (const name of readdirOr(parent)) {
        if (name.startsWith(FRESH_PREFIX)) consider(path.join(parent, name));
      }
    }
  }
  return [...found.values()];
}

/** A real directory (not a symlink) of this user's that no one else may enter. */
export function isPrivateDirectory(dir: string, uid: number = currentUid()): boolean {
  try {
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return stat.uid === uid && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Makes `dir` if needed, 0700 and this user's; throws when it is a symlink, another user's, or stays open to others. */
export function ensurePrivateDirectory(dir: string, uid: number = currentUid()): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
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
  return fs.mkdtempSync(path.join(safe, FRESH_PREFIX));
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

/**
 * Whether `pid` is a live process of this user's. One of another user's (EPERM) is not ours: a
 * window's host runs as the user, so a pid of someone else's was reused, and whatever a file
 * named for it says is stale.
 */
export function isOwnProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function currentUid(): number {
  return process.getuid?.() ?? 0;
}

function readdirOr(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
