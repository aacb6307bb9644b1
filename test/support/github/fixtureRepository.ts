// A real git repository for the publishing tests: `main`, and a branch `feature` pushed to an
// `origin` on github.com (its remote-tracking ref set by hand, as a push would), with a change of
// each kind GitHub's diff shows: lines changed, a file added, a rename with a change, a binary file.
// The pull request's files are worked out from `git diff`, as GitHub works out its own.

import { execFileSync } from 'child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import type { FakePullFile } from './fakeGitHub';

export interface FixtureRepository {
  readonly root: string;
  readonly headSha: string;
  readonly files: FakePullFile[];
  git(...args: string[]): string;
  remove(): void;
}

const lines = (count: number, label: string) =>
  Array.from({ length: count }, (_, i) => `const ${label}${i + 1} = ${i + 1};`).join('\n') + '\n';

export function makeFixtureRepository(
  remoteUrl = 'https://github.com/octo/app.git',
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'redline-publish-'))),
): FixtureRepository {
  mkdirSync(root, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      },
    });
  const write = (file: string, text: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  git('init', '-q', '-b', 'main');
  git('config', 'commit.gpgsign', 'false');
  write('src/app.ts', lines(40, 'app'));
  write('src/old.ts', lines(20, 'old'));
  write('src/untouched.ts', lines(10, 'same'));
  git('add', '-A');
  git('commit', '-qm', 'base');
  git('checkout', '-q', '-b', 'feature');
  const app = lines(40, 'app').split('\n');
  app.splice(9, 2, 'const changed10 = 10;', 'const changed11 = 11;', 'const added = true;');
  app.splice(30, 0, 'const late = 1;');
  write('src/app.ts', app.join('\n'));
  git('mv', 'src/old.ts', 'src/renamed.ts');
  write('src/renamed.ts', lines(20, 'old').replace('const old5 = 5;', 'const renamed5 = 5;'));
  write('src/added.ts', 'export const added = 1;\nexport const noNewline = 2;');
  write('docs/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0xff]));
  git('add', '-A');
  git('commit', '-qm', 'feature');
  git('remote', 'add', 'origin', remoteUrl);
  git('update-ref', 'refs/remotes/origin/feature', 'HEAD');
  git('config', 'branch.feature.remote', 'origin');
  git('config', 'branch.feature.merge', 'refs/heads/feature');
  return {
    root,
    headSha: git('rev-parse', 'HEAD').trim(),
    files: pullFiles(git('diff', '-M', '--no-color', 'main', 'feature')),
    git,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** `git diff` as GitHub's file list: each file's status, its old name when renamed, and its hunks as `patch`. */
export function pullFiles(diff: string): FakePullFile[] {
  const files: FakePullFile[] = [];
  for (const block of diff.split(/^(?=diff --git )/m).filter(Boolean)) {
    const header = block.split(/^(?=@@ )/m)[0];
    const patch = block.slice(header.length).replace(/\n$/, '');
    const name =
      /^\+\+\+ b\/(.+)$/m.exec(header)?.[1] ??
      /^rename to (.+)$/m.exec(header)?.[1] ??
      /^diff --git a\/.+ b\/(.+)$/m.exec(header)?.[1] ??
      '';
    const previous = /^rename from (.+)$/m.exec(header)?.[1];
    const status = /^new file mode/m.test(header)
      ? 'added'
      : /^deleted file mode/m.test(header)
        ? 'removed'
        : previous
          ? 'renamed'
          : 'modified';
    files.push({
      filename: name,
      status,
      ...(patch ? { patch } : {}),
      ...(previous ? { previous_filename: previous } : {}),
    });
  }
  return files;
}
