// Which window an MCP server belongs to, when nothing told it: the window with a workspace folder
// that contains the server's working directory. Pure, so that the rules are tested on their own
// (and with Windows paths anywhere); windowLocator.ts does the reading.

import * as path from 'path';
import type { WindowRecord } from '../../shared/discovery';

export interface WindowMatch<W extends WindowRecord> {
  readonly window: W;
  /** The workspace folder that contains the place asked about. */
  readonly folder: string;
}

/**
 * The windows with a folder that contains one of `places` (the working directory, or the folder
 * the user named), best first: the deepest folder wins, and a tie goes to the window focused
 * last. Folders match on whole path segments, so `/a/b` contains `/a/b/c` but never `/a/bc`.
 */
export function rankWindows<W extends WindowRecord>(
  windows: readonly W[],
  places: readonly string[],
  platform: NodeJS.Platform = process.platform,
): WindowMatch<W>[] {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const ranked: Array<WindowMatch<W> & { depth: number }> = [];
  for (const window of windows) {
    let best: { folder: string; depth: number } | undefined;
    for (const folder of window.folders) {
      if (!places.some((place) => contains(paths, folder, place))) continue;
      const depth = segments(paths, folder);
      if (!best || depth > best.depth) best = { folder, depth };
    }
    if (best) ranked.push({ window, ...best });
  }
  ranked.sort((a, b) => b.depth - a.depth || b.window.lastFocused - a.window.lastFocused);
  return ranked.map(({ window, folder }) => ({ window, folder }));
}

/**
 * The windows that name one of `ancestors` as a terminal's shell: the server runs in that terminal.
 * Newest host first, since a host that lingers after its window reloaded still names the terminals
 * the reloaded window took over.
 */
export function terminalOwners<W extends WindowRecord>(windows: readonly W[], ancestors: readonly number[]): W[] {
  if (ancestors.length === 0) return [];
  const mine = new Set(ancestors);
  return windows
    .filter((window) => window.terminals.some((pid) => mine.has(pid)))
    .sort((a, b) => b.started - a.started);
}

export function contains(paths: typeof path.posix, folder: string, place: string): boolean {
  if (!paths.isAbsolute(folder) || !paths.isAbsolute(place)) return false;
  // relative() resolves both and, on Windows, compares without regard to case.
  const rel = paths.relative(folder, place);
  if (rel === '') return true;
  return rel !== '..' && !rel.startsWith(`..${paths.sep}`) && !paths.isAbsolute(rel);
}

function segments(paths: typeof path.posix, folder: string): number {
  return paths.resolve(folder).split(paths.sep).filter(Boolean).length;
}

/** The open windows as a list for an error message: one line per folder, with its editor. */
export function describeWindows(windows: readonly WindowRecord[]): string {
  const lines = windows.flatMap((window) =>
    window.folders.length > 0
      ? window.folders.map((folder) => `  ${folder} (${window.editor})`)
      : [`  (a window with no folder open) (${window.editor})`],
  );
  return lines.join('\n');
}
