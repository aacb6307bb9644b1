// What completes prompt arguments: git refs read from a real repository, and workspace files ranked.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { completeFilePath } from '../../extension/src/editor/fileCompletion';
import { listGitRefs, runGit, shortRef } from '../../extension/src/editor/gitRefs';

describe('git refs', () => {
  let repo: string;
  let plain: string;

  beforeAll(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-git-'));
    plain = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-nogit-'));
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'first');
    // Staged, so that status reads the index, where a file system monitor would be asked.
    fs.writeFileSync(path.join(repo, 'b.txt'), 'b\n');
    git('add', 'b.txt');
    git('branch', 'feature/login');
    git('tag', 'v1.0');
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    git('update-ref', 'refs/notes/commits', 'HEAD');
  });
  afterAll(() => {
    fs.rmSync(repo, { recursive: true, force: true });
    fs.rmSync(plain, { recursive: true, force: true });
  });

  it('lists HEAD, branches, remote branches and tags of a repository, in that order', async () => {
    expect(await listGitRefs([repo], '')).toEqual({
      refs: [
        { name: 'HEAD', kind: 'head' },
        { name: 'feature/login', kind: 'branch' },
        { name: 'main', kind: 'branch' },
        { name: 'origin/main', kind: 'remote' },
        { name: 'v1.0', kind: 'tag' },
      ],
      truncated: false,
    });
    expect((await listGitRefs([repo], 'fe')).refs).toEqual([{ name: 'feature/login', kind: 'branch' }]);
  });

  it('adds nothing for a folder outside any repository, or when git fails', async () => {
    expect(await listGitRefs([plain], '')).toEqual({ refs: [], truncated: false });
    expect(await listGitRefs([repo], '', () => Promise.reject(new Error('git: not found')))).toEqual({
      refs: [],
      truncated: false,
    });
  });

  it('cuts at 100 and says so', async () => {
    const many = Array.from({ length: 150 }, (_, i) => `refs/heads/b${String(i).padStart(3, '0')}`).join('\n');
    const result = await listGitRefs(['/any'], 'b', async () => many);
    expect(result.refs).toHaveLength(100);
    expect(result.truncated).toBe(true);
  });

  it('turns full names into the short ones people type, and skips those they do not', () => {
    expect(shortRef('refs/heads/main')).toEqual({ name: 'main', kind: 'branch' });
    expect(shortRef('refs/remotes/origin/HEAD')).toBeUndefined();
    expect(shortRef('refs/stash')).toBeUndefined();
  });

  it('runs git with the file system monitor switched off, so a repository config cannot run a command', async () => {
    const marker = path.join(plain, 'ran');
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${marker}`], { cwd: repo });
    try {
      await runGit(repo, ['status', '--porcelain']);
      expect(fs.existsSync(marker)).toBe(false);
      // The control: plain git does run it.
      execFileSync('git', ['status', '--porcelain'], { cwd: repo, stdio: 'ignore' });
      expect(fs.existsSync(marker)).toBe(true);
    } finally {
      execFileSync('git', ['config', '--unset', 'core.fsmonitor'], { cwd: repo });
    }
  });
});

describe('file completion', () => {
  const files = ['src/app.ts', 'src/server/app.ts', 'test/app.test.ts', 'README.md', 'docs/Appendix.md'];

  it('ranks paths that start with the text, then a segment that does, then any that contain it', () => {
    expect(completeFilePath(files, 'src/').files).toEqual(['src/app.ts', 'src/server/app.ts']);
    expect(completeFilePath(files, 'app').files).toEqual([
      'src/app.ts',
      'docs/Appendix.md',
      'test/app.test.ts',
      'src/server/app.ts',
    ]);
    expect(completeFilePath(files, 'README').files).toEqual(['README.md']);
    expect(completeFilePath(files, 'zzz')).toEqual({ files: [], truncated: false });
  });

  it('returns at most 100', () => {
    const many = Array.from({ length: 250 }, (_, i) => `src/f${i}.ts`);
    expect(completeFilePath(many, 'src').files).toHaveLength(100);
    expect(completeFilePath(many, 'src').truncated).toBe(true);
  });
});
