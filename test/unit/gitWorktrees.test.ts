// A git worktree of a repository the window has open: found from the repository's own records, so
// an assistant working there has its references resolved in the worktree and its review says where
// it came from, while a directory that only claims to be a worktree widens nothing.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gitCommonDir, registeredWorktrees, worktreeHolding } from '../../shared/gitWorktrees';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';

let repo: string;
let worktree: string;
let impostor: string;
beforeAll(() => {
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-git-')));
  worktree = `${repo}-wt`;
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'a',
        GIT_AUTHOR_EMAIL: 'a@b',
        GIT_COMMITTER_NAME: 'a',
        GIT_COMMITTER_EMAIL: 'a@b',
      },
    });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  git('worktree', 'add', '-q', worktree);
  fs.mkdirSync(path.join(worktree, 'src'));
  // Claims, in its own .git file, to be that worktree; the repository does not list it.
  impostor = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-impostor-')));
  fs.writeFileSync(path.join(impostor, '.git'), `gitdir: ${repo}/.git/worktrees/${path.basename(worktree)}\n`);
});
afterAll(() => {
  for (const dir of [repo, worktree, impostor]) fs.rmSync(dir, { recursive: true, force: true });
});

it('finds the common git directory from the main checkout and from a worktree alike', () => {
  expect(gitCommonDir(path.join(worktree, 'src'))).toBe(path.join(repo, '.git'));
  expect(gitCommonDir(repo)).toBe(path.join(repo, '.git'));
  expect(registeredWorktrees(repo)).toEqual([worktree]);
  expect(registeredWorktrees(os.tmpdir())).toEqual([]);
});

it('says which worktree holds a place, only for worktrees the repository lists', () => {
  expect(worktreeHolding(path.join(worktree, 'src'), ['/elsewhere', repo])).toEqual({ folder: repo, worktree });
  expect(worktreeHolding(impostor, [repo])).toBeUndefined();
  expect(worktreeHolding(repo, [repo])).toBeUndefined();
});

it("lets a worktree's cwd say where references start, and names the worktree; never another place", async () => {
  const renderer = new ReviewRenderer(() => [repo]);
  try {
    expect(renderer.roots(path.join(worktree, 'src'))).toEqual([path.join(worktree, 'src'), worktree, repo]);
    expect(renderer.worktreeOf(path.join(worktree, 'src'))).toBe(`the worktree ${worktree}`);
    expect(renderer.roots(path.join(repo, 'sub'))).toEqual([path.join(repo, 'sub'), repo]);
    expect(renderer.worktreeOf(repo)).toBeUndefined();
    for (const place of ['/', impostor, os.homedir()]) {
      expect(renderer.roots(place)).toEqual([repo]);
      expect(renderer.worktreeOf(place)).toBeUndefined();
    }
  } finally {
    await renderer.dispose();
  }
});
