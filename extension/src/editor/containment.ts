// Whether a file open-location found lies inside the folders it may open without asking, judged on
// real paths: a link inside the workspace that points at ~/.ssh is outside.

import { promises as fs } from 'fs';
import * as path from 'path';
import { isWithin, type PathFlavour } from '../../../shared/pathSafety';

/** The real path, or the path itself when it cannot be resolved (a root that is gone contains nothing real). */
async function realOrSelf(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return p;
  }
}

export async function isInsideRoots(file: string, roots: readonly string[], flavour: PathFlavour = path): Promise<boolean> {
  const [real, ...realRoots] = await Promise.all([file, ...roots].map(realOrSelf));
  return realRoots.some((root) => isWithin(root, real, flavour));
}
