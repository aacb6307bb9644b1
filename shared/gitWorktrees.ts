// Git worktrees of a repository that a window has open: an assistant run in `git worktree add`'s
// checkout (a common way to run agents side by side) works in no window's folder, yet belongs to
// the window of the repository. Found from the repository's own records (<common dir>/worktrees/
// <name>/gitdir), never from what the worktree's `.git` file claims, since the place asked about
// comes from the assistant. No git process: a few small files, read synchronously, bounded.

import * as fs from 'fs';
import * as path from 'path';
import { isWithin } from './pathSafety';
import { realpathOr } from './realpath';

/** Files read here are a line or two; anything larger is not git's. */
const MAX_RECORD_BYTES = 4096;
/** Worktrees listed per repository at most. */
const MAX_WORKTREES = 256;
const MAX_DEPTH = 64;

/** The repository's common git directory (`.git` of the main checkout) for `dir`, or undefined when `dir` is in none. */
export function gitCommonDir(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const dotGit = path.join(current, '.git');
    const stat = statOf(dotGit);
    if (stat?.isDirectory()) return realpathOr(dotGit);
    if (stat?.isFile()) {
      // A worktree's (or a submodule's) `.git` file: "gitdir: <its git dir>", whose commondir names the shared one.
      const gitDir = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit) ?? '')?.[1]?.trim();
      if (!gitDir) return undefined;
      const own = path.resolve(current, gitDir);
      const common = readSmall(path.join(own, 'commondir'))?.trim();
      return realpathOr(common ? path.resolve(own, common) : own);
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/** The top folders of the worktrees that the repository of `folder` lists (not the main checkout). */
export function registeredWorktrees(folder: string): string[] {
  const common = gitCommonDir(folder);
  if (!common) return [];
  let names: string[];
  try {
    names = fs.readdirSync(path.join(common, 'worktrees')).slice(0, MAX_WORKTREES);
  } catch {
    return [];
  }
  const trees: string[] = [];
  for (const name of names) {
    // "<worktree>/.git", as `git worktree add` wrote it.
    const gitFile = readSmall(path.join(common, 'worktrees', name, 'gitdir'))?.trim();
    if (gitFile && path.isAbsolute(gitFile)) trees.push(realpathOr(path.dirname(gitFile)));
  }
  return trees;
}

/** The worktree (of a repository one of `folders` is in) that holds `place`, and that folder; undefined when none does. */
export function worktreeHolding(place: string, folders: readonly string[]): { readonly folder: string; readonly worktree: string } | undefined {
  const real = realpathOr(path.resolve(place));
  for (const folder of folders) {
    for (const worktree of registeredWorktrees(folder)) {
      if (isWithin(worktree, real, path)) return { folder, worktree };
    }
  }
  return undefined;
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function readSmall(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && stat.size <= MAX_RECORD_BYTES ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

