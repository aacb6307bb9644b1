// Sizes as the messages people read give them. One place, so that the window's errors, the MCP
// server's errors and its progress say the same size the same way.

const KIB = 1024;
const MIB = 1024 * 1024;

/** `bytes` in MiB, without the unit: "2.5". */
export function mib(bytes: number, digits = 1): string {
  return (bytes / MIB).toFixed(digits);
}

/** `bytes` in the unit that reads best: "512 bytes", "3.2 KiB", "2.5 MiB". */
export function formatSize(bytes: number): string {
  if (bytes < KIB) return `${bytes} bytes`;
  return bytes < MIB ? `${(bytes / KIB).toFixed(1)} KiB` : `${mib(bytes)} MiB`;
}

/** Texts this long have their count remembered; a shorter one is counted faster than compared. */
const REMEMBERED_FROM_CHARS = 64 * 1024;
let lastCounted: { readonly text: string; readonly bytes: number } | undefined;

/**
 * `text`'s size in UTF-8. A review's markdown is counted by the protocol's check, the bridge, the
 * store's limit and its file's first line, each a pass over megabytes on the window's thread; the
 * last long text counted is remembered, so that the same text is counted once. Counting a short
 * text forgets it: a replaced review's text is not kept alive here once the next call comes.
 */
export function utf8Bytes(text: string): number {
  if (text.length < REMEMBERED_FROM_CHARS) {
    lastCounted = undefined;
    return Buffer.byteLength(text, 'utf8');
  }
  if (lastCounted?.text === text) return lastCounted.bytes;
  const bytes = Buffer.byteLength(text, 'utf8');
  lastCounted = { text, bytes };
  return bytes;
}
