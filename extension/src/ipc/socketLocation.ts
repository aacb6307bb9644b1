// Where an extension host's socket lives. Each host listens on a socket of its own, named for its
// process, beside its discovery file (shared/discovery.ts): old hosts linger after a reload, and
// two hosts can serve the same workspace (two windows, two code-server tabs), so no name is shared.

import * as fs from 'fs';
import * as path from 'path';
import { isOwnProcessAlive, privateDirectory } from '../../../shared/privateDirectory';

export interface SocketLocation {
  /** What this process listens on, and what its terminals get in REDLINE_IPC_PATH. */
  readonly path: string;
  /** The private directory, which also holds the discovery files; undefined for a named pipe's namespace. */
  readonly directory: string;
  /** Names this host's socket and discovery file apart from those of other hosts with the same pid (in containers). */
  readonly key: string;
}

export function socketLocation(
  key: string,
  pid = process.pid,
  platform: NodeJS.Platform = process.platform,
): SocketLocation {
  const directory = privateDirectory();
  if (platform === 'win32') {
    // Named pipes live in a namespace of their own, with no files; the directory still holds discovery.
    return { path: `\\\\.\\pipe\\redline-${key}-${pid}`, directory, key };
  }
  return { path: path.join(directory, `${key}-${pid}.sock`), directory, key };
}

/**
 * Removes sockets and discovery files left by extension hosts that died without cleaning up (a
 * crash, a kill -9), and the per-window links of earlier versions that point at nothing. Only files named for a
 * process that no longer exists are touched, so other windows' live sockets are safe.
 */
export function removeDeadHostSockets(directory: string): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(directory)) {
    const file = path.join(directory, name);
    const owner = /^[0-9a-f]+-(\d+)\.sock$/.exec(name) ?? /^window-(\d+)-[0-9a-f]+\.json$/.exec(name);
    const danglingLink = /^[0-9a-f]+\.sock$/.test(name) && !fs.existsSync(file);
    if ((owner && !isOwnProcessAlive(Number(owner[1]))) || danglingLink) {
      fs.rmSync(file, { force: true });
      removed.push(name);
    }
  }
  return removed;
}
