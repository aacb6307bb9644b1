// A path as it really is (symlinks resolved), for comparing places that may have been reached
// through a link: containment is judged on these, never on the spelling, since `ws/link -> /`
// spells every file on the disk as if it were in `ws`.

import * as fs from 'fs';
import * as path from 'path';

/** The real path, or the path as given when it cannot be resolved (gone, or not ours to read). */
export function realpathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** realpathOr without blocking the thread: a root that is gone contains nothing real, so its spelling is kept. */
export async function realpathOrAsync(file: string): Promise<string> {
  try {
    return await fs.promises.realpath(file);
  } catch {
    return file;
  }
}

/** Where an absolute path really leads, as far as it exists. */
export interface RealPlace {
  /** The real path; for a path that does not resolve, its nearest resolvable ancestor's real path with the rest appended. */
  readonly real: string;
  /** Why the whole path did not resolve (an error with an errno code such as ENOENT); absent when it did. */
  readonly failure?: unknown;
}

/**
 * Where `absolutePath` really is. A missing file is placed by its nearest ancestor that exists, so
 * that `ws/link-to-root/etc/none` is known to be outside `ws` exactly as `ws/link-to-root/etc/passwd`
 * is: nothing about the rest of the disk may depend on whether a file exists there.
 */
export async function realPlace(absolutePath: string): Promise<RealPlace> {
  let failure: unknown;
  let failed = false;
  const rest: string[] = [];
  let current = absolutePath;
  for (;;) {
    try {
      const real = await fs.promises.realpath(current);
      return { real: rest.length === 0 ? real : path.join(real, ...rest.reverse()), ...(failed ? { failure } : {}) };
    } catch (error) {
      if (!failed) [failure, failed] = [error, true];
      const parent = path.dirname(current);
      // Even the root did not resolve: nothing is known, so the path stands as given.
      if (parent === current) return { real: absolutePath, failure };
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
