// Writes one large line in pieces, saying as each piece reaches the kernel: how a large review's
// journey to the window is followed. All pieces are queued at once, in one synchronous loop, so no
// other request's line can land between them; only the report of their draining is spread out.

import type { Writable } from 'stream';

/** Small enough that a 5 MiB review reports some twenty times, large enough to cost nothing. */
export const WRITE_CHUNK_BYTES = 256 * 1024;

/** `onFlushed(sent, total)` for each piece that left, in order; not for pieces a failed socket dropped. */
export function writeInChunks(
  stream: Writable,
  line: string,
  onFlushed: (sentBytes: number, totalBytes: number) => void,
): void {
  const bytes = Buffer.from(line, 'utf8');
  const total = bytes.length;
  for (let at = 0; at < total; at += WRITE_CHUNK_BYTES) {
    const end = Math.min(total, at + WRITE_CHUNK_BYTES);
    stream.write(bytes.subarray(at, end), (error) => {
      if (!error) onFlushed(end, total);
    });
  }
}
