// Whether a repository's file may be believed: git's safe.directory ownership rule (the file is
// the current user's; as root, root's own, or under sudo the invoking user's from SUDO_UID), and
// further, that no one else may write it. Another user who can plant or edit a repository's
// records could otherwise widen what counts as the user's own files.

import * as fs from 'fs';

/** Who this process acts for. `uid` is undefined where the platform has none (Windows). */
export interface Owner {
  readonly uid: number | undefined;
  /** git's SUDO_UID: only read when running as root. */
  readonly sudoUid?: number;
  /**
   * The user's own group, which no other user is in (Debian's and Ubuntu's user private groups,
   * whose umask 002 makes every repository group-writable): its write bit is the user's alone.
   */
  readonly privateGid?: number;
}

/** The part of fs.Stats the rule reads, so tests can stand in for another user's files. */
export interface OwnershipStats {
  readonly uid: number;
  readonly gid?: number;
  readonly mode: number;
  isSymbolicLink(): boolean;
  isDirectory(): boolean;
  isFile(): boolean;
}

/** How ownership is learnt: the file system and this process by default; tests inject both. */
export interface TrustContext {
  readonly owner: Owner;
  lstat(file: string): OwnershipStats;
  stat(file: string): OwnershipStats;
}

const ROOT_UID = 0;
const GROUP_WRITE = 0o020;
const OTHER_WRITE = 0o002;

export function currentOwner(env: NodeJS.ProcessEnv = process.env): Owner {
  const uid = process.geteuid?.();
  if (uid === ROOT_UID) return { uid, sudoUid: uidFrom(env.SUDO_UID) };
  const gid = process.getegid?.();
  return { uid, privateGid: uid !== undefined && gid !== undefined ? cachedPrivateGroup(uid, gid) : undefined };
}

/**
 * `gid` if the local account files make it a private group of `uid`: no other account has it as
 * its primary group and no one else is listed in it. Without those files, no group is private.
 */
export function privateGroupOf(
  uid: number,
  gid: number,
  read: (file: string) => string = (file) => fs.readFileSync(file, 'utf8'),
): number | undefined {
  try {
    const accounts = read('/etc/passwd')
      .split('\n')
      .map((line) => line.split(':'));
    const own = accounts.find((fields) => fields.length >= 4 && Number(fields[2]) === uid);
    const shared = accounts.some(
      (fields) => fields.length >= 4 && Number(fields[2]) !== uid && Number(fields[3]) === gid,
    );
    const group = read('/etc/group')
      .split('\n')
      .map((line) => line.split(':'))
      .find((fields) => fields.length >= 4 && Number(fields[2]) === gid);
    const others = group?.[3].split(',').filter((name) => name !== '' && name !== own?.[0]) ?? [];
    return own !== undefined && group !== undefined && !shared && others.length === 0 ? gid : undefined;
  } catch {
    return undefined;
  }
}

/** The account files are read once per process: every worktree lookup asks. */
let ownPrivateGroup: { uid: number; gid: number; answer: number | undefined } | undefined;

function cachedPrivateGroup(uid: number, gid: number): number | undefined {
  if (ownPrivateGroup?.uid !== uid || ownPrivateGroup.gid !== gid)
    ownPrivateGroup = { uid, gid, answer: privateGroupOf(uid, gid) };
  return ownPrivateGroup.answer;
}

export function systemTrust(env: NodeJS.ProcessEnv = process.env): TrustContext {
  return { owner: currentOwner(env), lstat: (file) => fs.lstatSync(file), stat: (file) => fs.statSync(file) };
}

/** As git reads SUDO_UID: a whole decimal number, else nothing. */
function uidFrom(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff ? Number(value) : undefined;
}

/** True if git would count a file with this owner as the current user's (is_path_owned_by_current_uid). */
export function ownedByUser(fileUid: number, owner: Owner): boolean {
  if (owner.uid === undefined) return true;
  if (fileUid === owner.uid) return true;
  return owner.uid === ROOT_UID && owner.sudoUid !== undefined && fileUid === owner.sudoUid;
}

/** Why these stats make a file untrustworthy, or undefined. A symlink's own mode means nothing, so only its owner counts. */
export function distrustOf(stats: OwnershipStats, owner: Owner): string | undefined {
  if (!ownedByUser(stats.uid, owner)) return `it belongs to uid ${stats.uid}, not to you`;
  if (owner.uid === undefined || stats.isSymbolicLink()) return undefined;
  if (stats.mode & OTHER_WRITE) return 'every user may write to it';
  if (stats.mode & GROUP_WRITE && !(owner.privateGid !== undefined && stats.gid === owner.privateGid))
    return 'its group may write to it';
  return undefined;
}

export type Kind = 'file' | 'directory';

/**
 * Why `file` (a `kind`) must not be believed, or undefined when it may. A link is judged as git
 * judges it, by its own owner, and then what it leads to must pass too. Never throws.
 */
export function untrusted(file: string, kind: Kind, context: TrustContext): string | undefined {
  try {
    const link = context.lstat(file);
    const own = distrustOf(link, context.owner);
    if (own !== undefined) return `${file}: ${own}`;
    const target = link.isSymbolicLink() ? context.stat(file) : link;
    if (kind === 'file' ? !target.isFile() : !target.isDirectory()) return `${file}: it is not a ${kind}`;
    const leads = link.isSymbolicLink() ? distrustOf(target, context.owner) : undefined;
    return leads === undefined ? undefined : `${file}: what it links to: ${leads}`;
  } catch (error) {
    return `${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** git's worktree check: the folder that holds a `.git` is the user's (who else may write in it is git's concern no more than ours). */
export function notOwned(folder: string, context: TrustContext): string | undefined {
  try {
    const stats = context.stat(folder);
    return ownedByUser(stats.uid, context.owner) ? undefined : `${folder}: it belongs to uid ${stats.uid}, not to you`;
  } catch (error) {
    return `${folder}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
