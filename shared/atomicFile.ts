// Crash-safe file replacement for every file Redline writes: a reader sees either the old file or the
// new one, never a mix, and a completed write survives a power cut. Not write-file-atomic: its v8
// needs Node 22 (the MCP server runs on the user's `node`), and it hooks the exit signals of the
// extension host, which is every extension's. The synchronous form is for the two small files written
// where the caller cannot wait (the discovery record, the launcher).

import { randomBytes } from 'crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, promises as fs, renameSync, rmSync, writeSync } from 'fs';
import * as path from 'path';

/** Temp files start with this, so that a store's load can sweep the ones a crash left behind. */
export const TEMP_PREFIX = '.tmp-';

export interface ReplaceOptions {
  /** The new file's mode, less the umask; 0600 unless given. */
  readonly mode?: number;
  /** The mode is set exactly, umask or not: a file replaced in place keeps the mode it had. */
  readonly exactMode?: boolean;
}

export interface ReplaceFileOptions extends ReplaceOptions {
  /**
   * Called once the temp file is written and fsynced, right before the rename that commits it:
   * throwing stops the write with nothing replaced (a folder lock confirms its hold here).
   */
  readonly beforeRename?: () => void;
}

/**
 * A temp name beside `target`, in its directory (a rename across file systems is no rename), and
 * unguessable: it is created with O_EXCL, so a name someone planted fails the write instead of
 * being written through.
 */
function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `${TEMP_PREFIX}${path.basename(target)}.${randomBytes(8).toString('hex')}`);
}

/**
 * Writes `data` to a new temp file beside `target` and fsyncs it. Renaming it into place is left
 * to the caller (see `replaceFile`), so that several files can be renamed and then share one
 * directory fsync.
 */
export async function writeTemp(
  target: string,
  data: string | Iterable<string>,
  options: ReplaceOptions = {},
): Promise<string> {
  const temp = tempPathFor(target);
  const mode = options.mode ?? 0o600;
  const handle = await fs.open(temp, 'wx', mode);
  try {
    if (options.exactMode && process.platform !== 'win32') await handle.chmod(mode);
    // Parts are encoded and written one at a time: a large file is never one string, nor one buffer.
    for (const part of typeof data === 'string' ? [data] : data) await writeAll(handle, Buffer.from(part, 'utf8'));
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return temp;
}

/** write(2) may write less than it was given (a full disk, a signal): the rest is written until none is left. */
export async function writeAll(handle: fs.FileHandle, buffer: Buffer): Promise<void> {
  for (let at = 0; at < buffer.length;) {
    const { bytesWritten } = await handle.write(buffer, at, buffer.length - at, null);
    if (bytesWritten <= 0) throw new Error('the disk took no more bytes');
    at += bytesWritten;
  }
}

/** Replaces `target` with `data` crash-safely: a temp file fsynced, renamed into place, the rename made durable. */
export async function replaceFile(target: string, data: string, options: ReplaceFileOptions = {}): Promise<void> {
  const temp = await writeTemp(target, data, options);
  try {
    options.beforeRename?.();
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(path.dirname(target));
}

/** `replaceFile` for a caller that cannot wait: the same temp name, fsyncs and rename, blocking. */
export function replaceFileSync(target: string, data: string, options: ReplaceOptions = {}): void {
  const temp = tempPathFor(target);
  const mode = options.mode ?? 0o600;
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      if (options.exactMode && process.platform !== 'win32') fchmodSync(fd, mode);
      const buffer = Buffer.from(data, 'utf8');
      for (let at = 0; at < buffer.length;) {
        const written = writeSync(fd, buffer, at, buffer.length - at, null);
        if (written <= 0) throw new Error('the disk took no more bytes');
        at += written;
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectorySync(path.dirname(target));
}

/** Makes a file's bytes durable, for a file made by other means than `replaceFile` (a copy). */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Makes renames and unlinks in `directory` durable. Windows cannot open a directory to fsync it; there NTFS's own journal has to do. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, 'r');
    await handle.sync();
  } catch (error) {
    if (!directorySyncUnsupported(error)) throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function syncDirectorySync(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch (error) {
    if (!directorySyncUnsupported(error)) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function directorySyncUnsupported(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return process.platform === 'win32' || code === 'EISDIR' || code === 'EINVAL' || code === 'EPERM';
}
