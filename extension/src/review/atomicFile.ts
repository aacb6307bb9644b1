// Crash-safe file replacement: a reader (or the next window) sees either the old file or the
// new one, never a half-written mix, and a completed write survives a power cut.

import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import * as path from 'path';

/** Temp files start with this, so that a load can sweep the ones a crash left behind. */
export const TEMP_PREFIX = '.tmp-';

/**
 * Writes `data` to a temp file beside `target` and fsyncs it. Renaming it into place is left to
 * the caller (see `commitTemp`), so that several files can be renamed and then share one
 * directory fsync.
 */
export async function writeTemp(target: string, data: string | Iterable<string>): Promise<string> {
  const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${path.basename(target)}.${randomBytes(6).toString('hex')}`);
  const handle = await fs.open(temp, 'w', 0o600);
  try {
    if (typeof data === 'string') await handle.writeFile(data, 'utf8');
    // Parts are encoded and written one at a time: a large file is never one string, nor one buffer.
    else for (const part of data) await writeAll(handle, Buffer.from(part, 'utf8'));
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return temp;
}

/** write(2) may write less than it was given; writeFile loops for that, and so must a part. */
async function writeAll(handle: fs.FileHandle, buffer: Buffer): Promise<void> {
  for (let at = 0; at < buffer.length; ) {
    const { bytesWritten } = await handle.write(buffer, at, buffer.length - at, null);
    if (bytesWritten === 0) throw new Error('the disk took no more bytes');
    at += bytesWritten;
  }
}

/** Replaces `target` with `data` crash-safely: its folder made if need be, a temp file renamed into place, the rename made durable. */
export async function replaceFile(target: string, data: string): Promise<void> {
  const directory = path.dirname(target);
  await fs.mkdir(directory, { recursive: true });
  const temp = await writeTemp(target, data);
  await fs.rename(temp, target);
  await syncDirectory(directory);
}

/** Makes renames and unlinks in `directory` durable. Windows cannot open a directory to fsync it; there NTFS's own journal has to do. */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (process.platform !== 'win32' && code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
