// The folder an exported review's paths are relative to: the top of the git checkout (a worktree's
// own top, as `git rev-parse --show-toplevel` says) that holds the folder the review's references
// start from, or that folder itself. It is only a base for relative paths and grants no access, so
// only the presence of a `.git` is checked: no git record is read and no trust is needed.

import { promises as fs } from 'fs';
import * as path from 'path';
import { isWithin } from '../../../shared/pathSafety';
import { realpathOrAsync } from '../../../shared/realpath';

const MAX_DEPTH = 64;

/** The checkout's top above (or at) `start`, or `start` when it is in none. */
export async function repositoryRoot(start: string): Promise<string> {
  const real = await realpathOrAsync(path.resolve(start));
  let current = real;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (await exists(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return real;
}

/**
 * `file` relative to `root`, with forward slashes, as SARIF and reviewdog want it. The root is a
 * real path and the file may have been reached through a link: its real path is tried too. A file
 * outside the root keeps a relative path that climbs out of it (`../other/a.ts`).
 */
export async function relativeToRoot(root: string, file: string): Promise<string> {
  const inside = isWithin(root, file, path) ? file : await realpathOrAsync(file);
  return path.relative(root, inside).split(path.sep).join('/');
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
