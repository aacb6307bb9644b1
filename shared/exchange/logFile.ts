// A SARIF log's bytes, read from a path someone else may have chosen (a log committed to a
// repository, a CI artifact): only a regular file, and never more than the limit. The file is opened
// without waiting (a FIFO with no writer answers at once) and checked once open, so a link to
// /dev/zero, a FIFO or a folder is refused at once with what it is; the limit is applied while
// reading, whatever the file's size said, so a file that grows is cut off too.

import { constants, promises as fs, type Stats } from 'fs';

/** A log that could not be read: the message names the file, says why and what to do. */
export class LogFileError extends Error {
  override readonly name = 'LogFileError';
}

const CHUNK_BYTES = 4 * 1024 * 1024;

/** The file's bytes; a LogFileError when it is no regular file, cannot be read, or holds more than `maxBytes`. */
export async function readLogFile(
  file: string,
  options: { readonly maxBytes: number; readonly name: string },
): Promise<Buffer> {
  const { maxBytes, name } = options;
  let handle: fs.FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO that has no writer returns instead of waiting for one.
    handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    throw new LogFileError(`Cannot read ${name}: ${reasonOf(error)}.`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new LogFileError(
        `${name} is ${kindOf(stat)}, not a regular file, so it is not read. Open the SARIF file itself.`,
      );
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) {
        throw new LogFileError(
          `${name} is larger than the ${maxBytes / 1024 / 1024} MiB a SARIF log may be to open as a review. Filter it (by rule, severity or folder) and open it again.`,
        );
      }
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof LogFileError) throw error;
    throw new LogFileError(`Cannot read ${name}: ${reasonOf(error)}.`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO (a named pipe)';
  if (stat.isCharacterDevice()) return 'a device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

function reasonOf(error: unknown): string {
  switch ((error as NodeJS.ErrnoException)?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many links';
    case 'EAGAIN':
      return 'it has no data to read now (a pipe or a device)';
    default:
      return (error as Error)?.message ?? String(error);
  }
}
