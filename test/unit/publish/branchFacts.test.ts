import { mkdtempSync, realpathSync, rmSync, symlinkSync, mkdirSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { changedPaths, repositoryPathOf } from '../../../extension/src/publish/branchFacts';

test('git status -z: changed, staged, untracked, and both names of a rename', () => {
  const status = [' M src/a.ts', 'M  src/b.ts', '?? new file.ts', 'R  src/new.ts', 'src/old.ts', 'D  gone.ts', ''].join(
    '\0',
  );
  expect([...changedPaths(status)].sort()).toEqual([
    'gone.ts',
    'new file.ts',
    'src/a.ts',
    'src/b.ts',
    'src/new.ts',
    'src/old.ts',
  ]);
  expect(changedPaths('').size).toBe(0);
});

describe('repositoryPathOf', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'redline-paths-')));
    mkdirSync(path.join(dir, 'repo', 'pkg'), { recursive: true });
    symlinkSync(path.join(dir, 'repo'), path.join(dir, 'link'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("a finding's file relative to the review's root becomes a path from the repository's root", () => {
    const inRepository = repositoryPathOf(path.join(dir, 'repo', 'pkg'), path.join(dir, 'repo'));
    expect(inRepository('src/a.ts')).toBe('pkg/src/a.ts');
    expect(inRepository(path.join(dir, 'repo', 'top.ts'))).toBe('top.ts');
    expect(inRepository('../../elsewhere.ts')).toBeUndefined();
    expect(inRepository('/etc/passwd')).toBeUndefined();
  });

  test('roots are compared as real paths: a window opened through a link still finds its files', () => {
    expect(repositoryPathOf(path.join(dir, 'link'), path.join(dir, 'repo'))('src/a.ts')).toBe('src/a.ts');
    expect(repositoryPathOf('', path.join(dir, 'repo'))('src/a.ts')).toBe('src/a.ts');
  });
});
