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
}

/** The part of fs.Stats the rule reads, so tests can stand in for another user's files. */
export interface OwnershipStats {
  readonly uid: number;
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
  return { uid, sudoUid: uid === ROOT_UID ? uidFrom(env.SUDO_UID) : undefined };
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
  if (stats.mode & GROUP_WRITE) return 'its group may write to it';
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
