// Node's compile cache, kept only where no other user can write. Node's default place,
// <tmp>/node-compile-cache, is shared by every user and Node does not check who made it: bytecode
// planted there would run as whoever starts the server next. So the cache lives in Redline's
// private directory (0700, this user's, not a symlink), or there is none.

import * as nodeModule from 'module';
import { namedPrivateDirectory, privateSubdirectory } from '../../shared/privateDirectory';

const CACHE_NAME = 'compile-cache';

type EnableCompileCache = (cacheDir?: string) => unknown;

/** This user's cache directory, checked; undefined when no private directory can be had. */
export function compileCacheDirectory(env: NodeJS.ProcessEnv = process.env, uid?: number): string | undefined {
  const base = namedPrivateDirectory(env, uid);
  return base === undefined ? undefined : privateSubdirectory(base, CACHE_NAME, uid);
}

/**
 * Turns the cache on in the checked directory, where the runtime has one (Node 22.1 and later,
 * VS Code's own runtime); returns the directory used. Node honours NODE_DISABLE_COMPILE_CACHE
 * itself, and a NODE_COMPILE_CACHE the user set has already taken effect at startup.
 */
export function enableOwnCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (enable === undefined) return undefined;
  const dir = compileCacheDirectory(env);
  if (dir !== undefined) enable(dir);
  return dir;
}
