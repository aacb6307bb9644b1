// Whether a file open-location found lies inside the folders it may open without asking, judged on
// real paths: a link inside the workspace that points at ~/.ssh is outside.

import * as path from 'path';
import { isWithin, type PathFlavour } from '../../../shared/pathSafety';
import { realpathOrAsync } from '../../../shared/realpath';

/** A root that cannot be resolved keeps its spelling: a root that is gone contains nothing real. */
export async function isInsideRoots(
  file: string,
  roots: readonly string[],
  flavour: PathFlavour = path,
): Promise<boolean> {
  const [real, ...realRoots] = await Promise.all([file, ...roots].map(realpathOrAsync));
  return realRoots.some((root) => isWithin(root, real, flavour));
}
