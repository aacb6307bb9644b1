// Whether a repository's file may be believed: git's safe.directory ownership rule (the file is
// the current user's; as root, root's own, or under sudo the invoking user's from SUDO_UID), and
// further, that no one else may write it. Another user who can plant or edit a repository's
// records could otherwise widen what counts as the user's own files. On Windows, where a file's
// owner is not in its stats, a file is the user's when it is under their profile or Get-Acl says
// they own it (git's rule since CVE-2022-24765).

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cachedPrivateGroup } from './accountGroups';
import { hasAccessAcl } from './fileAcl';
import { isWithin } from './pathSafety';
import { windowsOwnerOf, windowsUser } from './windowsOwner';

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
  /** On Windows: the user (`DOMAIN\user`) and their profile folder, whose files are theirs by its ACL. */
  readonly windows?: { readonly user: string | undefined; readonly profile: string };
}

/** The part of fs.Stats the rule reads, so tests can stand in for another user's files. */
export interface OwnershipStats {
  readonly uid: number;
  readonly gid?: number;
  readonly mode: number;
  /** Inode and change time: which version of the file an ACL or owner lookup is remembered for. */
  readonly dev?: number;
  readonly ino?: number;
  readonly ctimeMs?: number;
  isSymbolicLink(): boolean;
  isDirectory(): boolean;
  isFile(): boolean;
}

/** How ownership is learnt: the file system and this process by default; tests inject them. */
export interface TrustContext {
  readonly owner: Owner;
  lstat(file: string): OwnershipStats;
  stat(file: string): OwnershipStats;
  /** Whether the file (what it links to, with `follow`) has an access ACL; undefined when that cannot be told. */
  accessAcl?(file: string, stats: OwnershipStats, follow: boolean): boolean | undefined;
  /** On Windows, who owns the file; undefined when that cannot be told. */
  windowsOwner?(file: string, stats: OwnershipStats): string | undefined;
}

/** What a judgement may also need to know about a file, asked only when it matters. */
export interface FileFacts {
  readonly file?: string;
  accessAcl?(): boolean | undefined;
  windowsOwner?(): string | undefined;
}

const ROOT_UID = 0;
const GROUP_WRITE = 0o020;
const OTHER_WRITE = 0o002;

export function currentOwner(env: NodeJS.ProcessEnv = process.env): Owner {
  if (process.platform === 'win32') {
    const profile = os.homedir();
    // Found only when a file outside the profile is judged: whoami is a process.
    return {
      uid: undefined,
      windows: {
        profile,
        get user() {
          return windowsUser();
        },
      },
    };
  }
  const uid = process.geteuid?.();
  if (uid === ROOT_UID) return { uid, sudoUid: uidFrom(env.SUDO_UID) };
  const gid = process.getegid?.();
  // Found only when a group-writable file is judged: the name service may be a process away.
  return {
    uid,
    get privateGid() {
      return uid !== undefined && gid !== undefined ? cachedPrivateGroup(uid, gid) : undefined;
    },
  };
}

export function systemTrust(env: NodeJS.ProcessEnv = process.env): TrustContext {
  return {
    owner: currentOwner(env),
    lstat: (file) => fs.lstatSync(file),
    stat: (file) => fs.statSync(file),
    accessAcl: systemAccessAcl,
    windowsOwner: systemWindowsOwner,
  };
}

function systemWindowsOwner(file: string, stats: OwnershipStats): string | undefined {
  return windowsOwnerOf(file, stats.ctimeMs ?? 0);
}

function systemAccessAcl(file: string, stats: OwnershipStats, follow: boolean): boolean | undefined {
  const { dev, ino, ctimeMs } = stats;
  if (dev === undefined || ino === undefined || ctimeMs === undefined) return undefined;
  return hasAccessAcl(file, { dev, ino, ctimeMs }, follow);
}

/** As git reads SUDO_UID: a whole decimal number, else nothing. */
function uidFrom(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff ? Number(value) : undefined;
}

/** True if git would count a file with this owner as the current user's (is_path_owned_by_current_uid). Not for Windows: see windowsDistrust. */
export function ownedByUser(fileUid: number, owner: Owner): boolean {
  if (owner.uid === undefined) return true;
  if (fileUid === owner.uid) return true;
  return owner.uid === ROOT_UID && owner.sudoUid !== undefined && fileUid === owner.sudoUid;
}

/**
 * Why these stats make a file untrustworthy, or undefined. A symlink's own mode means nothing, so
 * only its owner counts. The private group's write bit is excused only when no access ACL hides
 * behind it: with one, the group bits are the ACL's mask, and a grant to anyone shows there.
 */
export function distrustOf(stats: OwnershipStats, owner: Owner, facts: FileFacts = {}): string | undefined {
  if (owner.windows) return windowsDistrust(owner.windows, facts);
  if (!ownedByUser(stats.uid, owner)) return `it belongs to uid ${stats.uid}, not to you`;
  if (owner.uid === undefined || stats.isSymbolicLink()) return undefined;
  if (stats.mode & OTHER_WRITE) return 'every user may write to it';
  if (!(stats.mode & GROUP_WRITE)) return undefined;
  if (owner.privateGid === undefined || stats.gid !== owner.privateGid) return 'its group may write to it';
  const acl = facts.accessAcl?.();
  if (acl === true) return 'its ACL may let other users write to it';
  if (acl === undefined)
    return 'its group may write to it, and whether an ACL lets other users write too could not be told';
  return undefined;
}

/** Windows: the user's when under their profile, or owned by them. */
function windowsDistrust(windows: NonNullable<Owner['windows']>, facts: FileFacts): string | undefined {
  if (facts.file !== undefined && isWithin(windows.profile, facts.file, path.win32)) return undefined;
  const outside = `it is outside your profile (${windows.profile})`;
  const owner = facts.windowsOwner?.();
  if (owner === undefined) return `${outside}, and Windows did not say who owns it`;
  const user = windows.user;
  if (user !== undefined && owner.toLowerCase() === user.toLowerCase()) return undefined;
  return `${outside} and belongs to ${owner}, not to you${user !== undefined ? ` (${user})` : ''}`;
}

export type Kind = 'file' | 'directory';

/** What distrustOf may ask about `file`, learnt through the context (or this system). */
function factsOf(
  { file, stats, follow }: { readonly file: string; readonly stats: OwnershipStats; readonly follow: boolean },
  context: TrustContext,
): FileFacts {
  return {
    file,
    accessAcl: () => (context.accessAcl ?? systemAccessAcl)(file, stats, follow),
    windowsOwner: () => (context.windowsOwner ?? systemWindowsOwner)(file, stats),
  };
}

/**
 * Why `file` (a `kind`) must not be believed, or undefined when it may. A link is judged as git
 * judges it, by its own owner, and then what it leads to must pass too. Never throws.
 */
export function untrusted(file: string, kind: Kind, context: TrustContext): string | undefined {
  try {
    const link = context.lstat(file);
    const own = distrustOf(link, context.owner, factsOf({ file, stats: link, follow: false }, context));
    if (own !== undefined) return `${file}: ${own}`;
    const target = link.isSymbolicLink() ? context.stat(file) : link;
    if (kind === 'file' ? !target.isFile() : !target.isDirectory()) return `${file}: it is not a ${kind}`;
    const leads = link.isSymbolicLink()
      ? distrustOf(target, context.owner, factsOf({ file, stats: target, follow: true }, context))
      : undefined;
    return leads === undefined ? undefined : `${file}: what it links to: ${leads}`;
  } catch (error) {
    return `${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** git's worktree check: the folder that holds a `.git` is the user's (who else may write in it is git's concern no more than ours). */
export function notOwned(folder: string, context: TrustContext): string | undefined {
  try {
    const stats = context.stat(folder);
    if (context.owner.windows) {
      const why = windowsDistrust(context.owner.windows, factsOf({ file: folder, stats, follow: true }, context));
      return why === undefined ? undefined : `${folder}: ${why}`;
    }
    return ownedByUser(stats.uid, context.owner) ? undefined : `${folder}: it belongs to uid ${stats.uid}, not to you`;
  } catch (error) {
    return `${folder}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
