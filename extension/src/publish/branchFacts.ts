// What publishing needs to know of the local repository, asked of git itself: the root, the branch
// and where it is pushed, the remote's URL, HEAD, and the files changed since HEAD.

import * as fs from 'fs';
import * as path from 'path';
import { runGitProcess } from '../editor/gitProcess';
import { PublishError } from './publishErrors';

export interface BranchFacts {
  /** The repository's root, as git gives it. */
  readonly root: string;
  readonly branch: string;
  /** The remote the branch is pushed to and the branch's name there. */
  readonly upstream: { readonly remote: string; readonly branch: string };
  readonly remoteUrl: string;
  readonly headSha: string;
  /** Whether HEAD has commits its upstream has not (as git last fetched it). */
  readonly aheadOfUpstream: boolean;
  /** Paths (relative to the root) with changes not committed, staged or not, and untracked files. */
  readonly changedFiles: ReadonlySet<string>;
}

export type RunGit = (args: readonly string[], cwd: string) => Promise<string>;

/** git with a bounded time and output (gitProcess.ts: no prompt, no fsmonitor). */
export const runGit: RunGit = (args, cwd) =>
  runGitProcess(args, cwd, { timeoutMs: 15_000, maxBuffer: 8 * 1024 * 1024 });

export async function readBranchFacts(folder: string, git: RunGit = runGit): Promise<BranchFacts> {
  const root = (
    await git(['rev-parse', '--show-toplevel'], folder).catch(() => {
      throw new PublishError(
        `${folder} is not in a git repository: publishing needs the pull request's branch checked out.`,
        'no-repository',
      );
    })
  ).trim();
  const branch = (
    await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], root).catch(() => {
      throw new PublishError(
        "HEAD is not on a branch (detached): check out the pull request's branch, then publish again.",
        'not-pushed',
      );
    })
  ).trim();
  const upstreamRef = (
    await git(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{u}'], root).catch(() => '')
  ).trim();
  const remote = (await git(['config', '--get', `branch.${branch}.remote`], root).catch(() => '')).trim();
  const merge = (await git(['config', '--get', `branch.${branch}.merge`], root).catch(() => '')).trim();
  if (!upstreamRef || !remote || remote === '.' || !merge.startsWith('refs/heads/')) {
    throw new PublishError(
      `The branch "${branch}" is not pushed (it has no upstream branch): push it and open a pull request, then publish again.`,
      'not-pushed',
    );
  }
  const remoteUrl = (await git(['remote', 'get-url', remote], root).catch(() => '')).trim();
  if (!remoteUrl)
    throw new PublishError(`The remote "${remote}" of the branch "${branch}" has no URL.`, 'no-repository');
  const headSha = (await git(['rev-parse', 'HEAD'], root)).trim();
  const ahead = (await git(['rev-list', '--count', '@{u}..HEAD'], root).catch(() => '0')).trim();
  const status = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], root);
  return {
    root,
    branch,
    upstream: { remote, branch: merge.slice('refs/heads/'.length) },
    remoteUrl,
    headSha,
    aheadOfUpstream: Number(ahead) > 0,
    changedFiles: changedPaths(status),
  };
}

/** The paths of `git status --porcelain=v1 -z`: a rename's entry is followed by its old path. */
export function changedPaths(status: string): Set<string> {
  const paths = new Set<string>();
  const entries = status.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.length < 4) continue;
    paths.add(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') paths.add(entries[++i] ?? '');
  }
  paths.delete('');
  return paths;
}

/**
 * A finding's file as a path in the repository, or undefined when it is outside it. The two roots
 * are compared as real paths: git gives its root with links resolved, the window may not.
 */
export function repositoryPathOf(repositoryRoot: string, gitRoot: string): (file: string) => string | undefined {
  const reviewRoot = realPath(repositoryRoot || gitRoot);
  const root = realPath(gitRoot);
  return (file) => {
    const absolute = path.resolve(reviewRoot, file);
    const relative = path.relative(root, absolute);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep).join('/');
  };
}

function realPath(folder: string): string {
  try {
    return fs.realpathSync.native(folder);
  } catch {
    return path.resolve(folder);
  }
}
