// Git worktrees of a repository that a window has open: an assistant run in `git worktree add`'s
// checkout works in no window's folder, yet belongs to the window of the repository. Found from the
// repository's own records (<common dir>/worktrees/<name>/gitdir), never from the worktree's `.git`
// file, since the place asked about comes from the assistant. A record is believed only as git's
// safe.directory would believe it (repositoryTrust.ts), only when the worktree's `.git` points back
// at it, and never for `/`, the home folder or a folder that holds a workspace folder. No git
// process: a few small files, read synchronously.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isWithin, refusedPathReason } from './pathSafety';
import { realpathOr } from './realpath';
import { notOwned, systemTrust, untrusted, type TrustContext } from './repositoryTrust';

/** Files read here are a line or two; anything larger is not git's. */
const MAX_RECORD_BYTES = 4096;
/** Worktrees listed per repository at most. */
const MAX_WORKTREES = 256;
const MAX_DEPTH = 64;

export interface WorktreeOptions {
  /** How ownership is learnt; this process and the file system unless given. */
  readonly trust?: TrustContext;
  /** Told why a repository or a record was not believed, so that routing can say so. */
  readonly onDistrust?: (why: string) => void;
}

/** The repository's common git directory (`.git` of the main checkout) for `dir`, or undefined when `dir` is in none that is the user's. */
export function gitCommonDir(dir: string, options: WorktreeOptions = {}): string | undefined {
  const trust = options.trust ?? systemTrust();
  const refuse = (why: string) => (
    options.onDistrust?.(`the repository above ${dir} is not trusted: ${why}`),
    undefined
  );
  let current = realpathOr(path.resolve(dir));
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const dotGit = path.join(current, '.git');
    const stat = lstatOf(dotGit, trust);
    if (stat !== undefined) {
      // As git does, the first `.git` up the tree decides: an untrusted one is not skipped for another above it.
      const folderWhy = notOwned(current, trust);
      if (folderWhy !== undefined) return refuse(folderWhy);
      if (!stat.isFile()) {
        const why = untrusted(dotGit, 'directory', trust);
        return why === undefined ? realpathOr(dotGit) : refuse(why);
      }
      return commonDirOfLink(current, trust, refuse);
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/**
 * The common dir that `top`'s `.git` file leads to: a worktree's (or a submodule's) `.git` file
 * says "gitdir: <its git dir>", whose commondir names the shared one.
 */
function commonDirOfLink(top: string, trust: TrustContext, refuse: (why: string) => undefined): string | undefined {
  const dotGit = path.join(top, '.git');
  const fileWhy = untrusted(dotGit, 'file', trust);
  if (fileWhy !== undefined) return refuse(fileWhy);
  const gitDir = gitdirLine(readSmall(dotGit));
  if (!gitDir) return undefined;
  const own = path.resolve(top, gitDir);
  const ownWhy = untrusted(own, 'directory', trust);
  if (ownWhy !== undefined) return refuse(ownWhy);
  const commondirFile = path.join(own, 'commondir');
  if (lstatOf(commondirFile, trust) === undefined) return realpathOr(own);
  const commondirWhy = untrusted(commondirFile, 'file', trust);
  if (commondirWhy !== undefined) return refuse(commondirWhy);
  const common = readSmall(commondirFile)?.trim();
  if (!common) return undefined;
  const shared = path.resolve(own, common);
  const sharedWhy = untrusted(shared, 'directory', trust);
  return sharedWhy === undefined ? realpathOr(shared) : refuse(sharedWhy);
}

/** The top folders of the worktrees that the repository of `folder` lists and that pass every check (not the main checkout). */
export function registeredWorktrees(
  folder: string,
  options: WorktreeOptions & { readonly folders?: readonly string[] } = {},
): string[] {
  const listed = listedWorktrees(folder, options);
  if (listed === undefined) return [];
  const judge = worktreeJudge([folder, ...(options.folders ?? [])], options);
  return listed.filter((record) => judge(record)).map((record) => record.worktree);
}

/** The worktree (of a repository one of `folders` is in) that holds `place`, and that folder; undefined when none does. */
export function worktreeHolding(
  place: string,
  folders: readonly string[],
  options: WorktreeOptions = {},
): { readonly folder: string; readonly worktree: string } | undefined {
  if (refusedPathReason(place) !== undefined) return undefined;
  const real = realpathOr(path.resolve(place));
  for (const folder of folders) {
    const listed = listedWorktrees(folder, options);
    if (listed === undefined) continue;
    const judge = worktreeJudge(folders, options);
    // Only the record that would decide is checked in full: a repository may list hundreds.
    for (const record of listed) {
      if (isWithin(record.worktree, real, path) && judge(record)) return { folder, worktree: record.worktree };
    }
  }
  return undefined;
}

interface WorktreeRecord {
  /** <common dir>/worktrees/<name> */
  readonly record: string;
  /** The folder its gitdir names, as it really is. */
  readonly worktree: string;
}

/**
 * The records of the repository of `folder` that are the user's own, with the folder each names as
 * it really is; undefined when there is no repository of the user's. Nothing a record names is
 * touched before the record is believed, and never a network share or a device (a realpath of
 * `\\host\share` would reach the host).
 */
function listedWorktrees(folder: string, options: WorktreeOptions): WorktreeRecord[] | undefined {
  const common = gitCommonDir(folder, options);
  if (!common) return undefined;
  const trust = options.trust ?? systemTrust();
  const recordsDir = path.join(common, 'worktrees');
  if (lstatOf(recordsDir, trust) === undefined) return [];
  const dirWhy = untrusted(recordsDir, 'directory', trust);
  if (dirWhy !== undefined)
    return (options.onDistrust?.(`the worktree records in ${recordsDir} are not trusted: ${dirWhy}`), []);
  let names: string[];
  try {
    names = fs.readdirSync(recordsDir).slice(0, MAX_WORKTREES);
  } catch {
    return [];
  }
  const records: WorktreeRecord[] = [];
  for (const name of names) {
    const record = path.join(recordsDir, name);
    const gitdir = path.join(record, 'gitdir');
    const why = untrusted(record, 'directory', trust) ?? untrusted(gitdir, 'file', trust);
    if (why !== undefined) {
      options.onDistrust?.(`the worktree record ${record} is not trusted: ${why}`);
      continue;
    }
    // "<worktree>/.git", as `git worktree add` wrote it: absolute, or relative to the record (worktree.useRelativePaths).
    const gitFile = readSmall(gitdir)?.trim();
    if (!gitFile || gitFile.includes('\n') || refusedPathReason(gitFile) !== undefined) continue;
    const named = path.resolve(record, gitFile);
    if (path.basename(named) !== '.git') continue;
    records.push({ record, worktree: realpathOr(path.dirname(named)) });
  }
  return records;
}

/** Whether a record may be believed, told to onDistrust when not. */
function worktreeJudge(folders: readonly string[], options: WorktreeOptions): (record: WorktreeRecord) => boolean {
  const trust = options.trust ?? systemTrust();
  const never = neverWorktrees(folders);
  return (listed) => {
    const why = whyNotBelieved(listed, never, trust);
    if (why !== undefined) options.onDistrust?.(`the worktree record ${listed.record} is not trusted: ${why}`);
    return why === undefined;
  };
}

/** Why the record is not believed (`never`: places a worktree must not be or hold), or undefined. */
function whyNotBelieved(
  { record, worktree }: WorktreeRecord,
  never: readonly string[],
  trust: TrustContext,
): string | undefined {
  if (worktree === path.parse(worktree).root) return `it names ${worktree}, the root of the file system`;
  const holds = never.find((place) => isWithin(worktree, place, path));
  if (holds !== undefined) return `it names ${worktree}, which is or holds ${holds}`;
  const folderWhy = notOwned(worktree, trust);
  if (folderWhy !== undefined) return folderWhy;
  // The checkout must say it is this record's worktree, as `git worktree add` made it.
  const dotGit = path.join(worktree, '.git');
  const dotGitWhy = untrusted(dotGit, 'file', trust);
  if (dotGitWhy !== undefined) return dotGitWhy;
  const back = gitdirLine(readSmall(dotGit));
  if (back === undefined || realpathOr(path.resolve(worktree, back)) !== realpathOr(record)) {
    return `${dotGit} does not point back at ${record}`;
  }
  return undefined;
}

/** The home folder and every workspace folder, as they really are: a worktree never is or holds one. */
function neverWorktrees(folders: readonly string[]): string[] {
  const homes = [os.homedir(), safeUserHome()].filter((home): home is string => !!home);
  return [...new Set([...homes, ...folders].map((place) => realpathOr(path.resolve(place))))];
}

function safeUserHome(): string | undefined {
  try {
    return os.userInfo().homedir;
  } catch {
    return undefined;
  }
}

/** The path a `.git` file names: as git reads it, only from its first line, after "gitdir: ". */
function gitdirLine(text: string | undefined): string | undefined {
  const first = (text ?? '').split('\n', 1)[0].replace(/\r$/, '');
  return /^gitdir:[ \t]*(.+)$/.exec(first)?.[1]?.trim() || undefined;
}

function lstatOf(file: string, trust: TrustContext) {
  try {
    return trust.lstat(file);
  } catch {
    return undefined;
  }
}

/** A regular file of a line or two; never follows into a FIFO or a device, which could block. */
function readSmall(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && stat.size <= MAX_RECORD_BYTES ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
