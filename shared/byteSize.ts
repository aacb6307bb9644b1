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
