// The workspace's git refs, for completing a prompt's `base` argument (review-changes). Read with
// `git for-each-ref` in each workspace folder: plain Node, so tests run it on a real repository.
// Nothing here runs a user's command: for-each-ref reads no index and runs no hook, and any file
// system monitor the repository's config names is switched off for the call.

import { runGitProcess } from './gitProcess';
import { MAX_COMPLETIONS, type GitRef, type ListGitRefsResult } from '../../../shared/protocol';

const GIT_TIMEOUT_MS = 3_000;
/** A repository with more refs than this is read in part: completion is a convenience. */
const MAX_REFS_READ = 5_000;

export type RunGit = (cwd: string, args: readonly string[]) => Promise<string>;

export const runGit: RunGit = (cwd, args) =>
  runGitProcess(args, cwd, { timeoutMs: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 });

const KIND_ORDER: Record<GitRef['kind'], number> = { head: 0, branch: 1, remote: 2, tag: 3 };

/** A full ref name as completion offers it, or undefined for refs nobody types (origin/HEAD, notes, stashes). */
export function shortRef(fullName: string): GitRef | undefined {
  const kinds: Array<[string, GitRef['kind']]> = [
    ['refs/heads/', 'branch'],
    ['refs/remotes/', 'remote'],
    ['refs/tags/', 'tag'],
  ];
  for (const [prefix, kind] of kinds) {
    if (!fullName.startsWith(prefix)) continue;
    const name = fullName.slice(prefix.length);
    if (!name || (kind === 'remote' && name.endsWith('/HEAD'))) return undefined;
    return { name, kind };
  }
  return undefined;
}

/**
 * Refs of every folder that is in a git repository, HEAD first, then branches, remote branches and
 * tags, each sorted by name; those starting with `prefix`, at most MAX_COMPLETIONS. A folder that
 * is not a repository, or a machine without git, adds nothing.
 */
export async function listGitRefs(
  folders: readonly string[],
  prefix: string,
  run: RunGit = runGit,
): Promise<ListGitRefsResult> {
  const perFolder = await Promise.all(
    folders.map((folder) =>
      run(folder, [
        'for-each-ref',
        `--count=${MAX_REFS_READ}`,
        '--format=%(refname)',
        'refs/heads',
        'refs/remotes',
        'refs/tags',
      ]).then(
        (output) => output.split('\n'),
        () => undefined,
      ),
    ),
  );
  const found = new Map<string, GitRef>();
  for (const names of perFolder) {
    if (!names) continue;
    found.set('HEAD', { name: 'HEAD', kind: 'head' });
    for (const fullName of names) {
      const ref = shortRef(fullName.trim());
      if (ref && !found.has(ref.name)) found.set(ref.name, ref);
    }
  }
  const matching = [...found.values()]
    .filter((ref) => ref.name.startsWith(prefix))
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name));
  return { refs: matching.slice(0, MAX_COMPLETIONS), truncated: matching.length > MAX_COMPLETIONS };
}
