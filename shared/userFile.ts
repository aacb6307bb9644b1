// A file the user named for Redline to write (an export's --output, Export Review…'s save dialog),
// written as `>` in a shell would treat it, but crash-safely: through a symbolic link to the file it
// names, keeping an existing file's mode (and, when written as root, its owner), and never over
// something that is not a regular file (/dev/null, a FIFO, a folder), which is refused with what it is.

import { promises as fs, type Stats } from 'fs';
import * as path from 'path';
import { replaceFile } from './atomicFile';

/** A target that is not a regular file, or a link that leads nowhere it can be: the message says what to do. */
export class UserFileError extends Error {
  override readonly name = 'UserFileError';
}

/** Links followed at most, as the kernel's own limit. */
const MAX_LINKS = 40;

/** Writes `text` to `target` whole: the file a link leads to, its mode kept; a new file gets 0666 less the umask. */
export async function writeUserFile(target: string, text: string): Promise<void> {
  const file = await linkTarget(path.resolve(target));
  const stat = await statOrUndefined(file);
  if (stat && !stat.isFile()) {
    throw new UserFileError(`${target} is ${kindOf(stat)}, not a regular file: name a file to write the export to.`);
  }
  if (!stat) {
    await replaceFile(file, text, { mode: 0o666 });
    return;
  }
  await replaceFile(file, text, { mode: stat.mode & 0o7777, exactMode: true });
  // Replaced by root, the file would become root's: it stays its owner's.
  if (process.getuid?.() === 0 && (stat.uid !== 0 || stat.gid !== 0))
    await fs.chown(file, stat.uid, stat.gid).catch(() => undefined);
}

/** Where `file` leads through its links, even to a file that does not exist yet (a link to be filled). */
async function linkTarget(file: string): Promise<string> {
  let current = file;
  for (let i = 0; i < MAX_LINKS; i++) {
    let link: string;
    try {
      link = await fs.readlink(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EINVAL' || code === 'ENOENT' || code === 'UNKNOWN') return current; // not a link
      throw error;
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw new UserFileError(`${file} is a chain of more than ${MAX_LINKS} links: name the file itself.`);
}

async function statOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO (a named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}
