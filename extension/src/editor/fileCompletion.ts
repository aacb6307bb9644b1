// Which workspace files complete what the user typed for review-file's `file` argument. Plain
// TypeScript: completionSources.ts lists the files with `vscode`, this ranks them.

import { MAX_COMPLETIONS, type FindWorkspaceFilesResult } from '../../../shared/protocol';

/**
 * Paths that start with `typed` first, then those with a path segment or file name starting with
 * it, then those containing it; each group shortest first, as a nearer file is likelier meant.
 * Case is ignored, since a file name is rarely typed with its capitals.
 */
export function completeFilePath(paths: readonly string[], typed: string): FindWorkspaceFilesResult {
  const needle = typed.toLowerCase();
  const rank = (candidate: string): number => {
    const lower = candidate.toLowerCase();
    if (lower.startsWith(needle)) return 0;
    if (lower.includes(`/${needle}`)) return 1;
    return lower.includes(needle) ? 2 : -1;
  };
  const ranked = paths
    .map((path) => ({ path, rank: rank(path) }))
    .filter((entry) => entry.rank !== -1)
    .sort((a, b) => a.rank - b.rank || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return {
    files: ranked.slice(0, MAX_COMPLETIONS).map((entry) => entry.path),
    truncated: ranked.length > MAX_COMPLETIONS,
  };
}
