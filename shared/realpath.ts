// A path as it really is (symlinks resolved), or as given when it cannot be resolved (gone, or
// not ours to read): for comparing places that may have been reached through a link.

import * as fs from 'fs';

export function realpathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
