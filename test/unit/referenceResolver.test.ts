// ReferenceResolver against real files in a temporary folder: search order, line checks, and every
// way a reference can be broken without the resolver throwing.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FileReference } from '../../shared/links';
import { ReferenceResolver } from '../../extension/src/render/referenceResolver';

// chmod 000 does not stop root (CI runs as root), so permission denial is simulated at the fs layer.
const mockDeniedPaths = new Set<string>();
jest.mock('fs', () => {
  const actual = jest.requireActual<typeof import('fs')>('fs');
  return {
    ...actual,
    openSync: (target: import('fs').PathLike, ...rest: unknown[]) => {
      if (mockDeniedPaths.has(String(target))) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return (actual.openSync as (...args: unknown[]) => number)(target, ...rest);
    },
  };
});

const ref = (refPath: string, location: Partial<FileReference> = {}): FileReference => ({ kind: 'file', path: refPath, ...location });

let scratch: string;
let cwd: string;
let workspace: string;

function write(root: string, relative: string, content: string | Buffer): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');

beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-resolver-'));
  cwd = path.join(scratch, 'cwd');
  workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(cwd);
  fs.mkdirSync(workspace);
});

afterEach(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('finding the file', () => {
  it('looks in the cwd before the workspace folders', () => {
    const inCwd = write(cwd, 'src/a.ts', lines(3));
    write(workspace, 'src/a.ts', lines(50));
    expect(new ReferenceResolver([cwd, workspace]).resolve(ref('src/a.ts', { line: 2 }))).toEqual({
      status: 'resolved',
      absolutePath: inCwd,
      lineCount: 3,
    });
  });

  it('falls back to a workspace folder', () => {
    const inWorkspace = write(workspace, 'lib/b.py', lines(5));
    const resolution = new ReferenceResolver([cwd, workspace]).resolve(ref('lib/b.py', { line: 5 }));
    expect(resolution).toEqual({ status: 'resolved', absolutePath: inWorkspace, lineCount: 5 });
  });

  it('takes an absolute path as it is, whatever the roots', () => {
    const file = write(scratch, 'elsewhere/c.ts', lines(2));
    expect(new ReferenceResolver([cwd]).resolve(ref(file, { line: 1 }))).toMatchObject({ status: 'resolved', absolutePath: file });
  });

  it('reads a backslash path written on Windows', () => {
    const file = write(cwd, 'src/win.ts', lines(4));
    const resolution = new ReferenceResolver([cwd]).resolve(ref('src\\win.ts', { line: 4 }));
    expect(resolution).toMatchObject({ status: 'resolved', absolutePath: file });
  });

  (process.platform === 'win32' ? it.skip : it)('never joins a Windows drive path onto a root', () => {
    write(cwd, 'C:/src/a.ts', lines(20)); // a folder literally named "C:" must not make it resolve
    expect(new ReferenceResolver([cwd]).resolve(ref('C:/src/a.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: 'no file C:/src/a.ts',
    });
  });

  it('says where it looked when the file is missing', () => {
    expect(new ReferenceResolver([cwd, workspace]).resolve(ref('src/x.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: `no file src/x.ts in ${cwd} or ${workspace}`,
    });
  });

  it('summarises a long list of folders', () => {
    const roots = ['/r1', '/r2', '/r3', '/r4', '/r5'];
    const resolution = new ReferenceResolver(roots).resolve(ref('src/x.ts'));
    expect(resolution).toEqual({ status: 'broken', reason: 'no file src/x.ts in /r1, /r2, /r3 or 2 other folders' });
  });

  it('says so when there is nowhere to look', () => {
    const resolution = new ReferenceResolver([]).resolve(ref('src/x.ts', { line: 3 }));
    expect(resolution).toEqual({
      status: 'broken',
      reason: 'no file src/x.ts: there is no working folder or workspace folder to look in',
    });
  });

  it('treats a path through a file as missing', () => {
    write(cwd, 'src/a.ts', lines(1));
    expect(new ReferenceResolver([cwd]).resolve(ref('src/a.ts/b.ts', { line: 1 }))).toMatchObject({ status: 'broken' });
  });
});

describe('checking the line', () => {
  it('accepts the last line and refuses the one after it', () => {
    write(cwd, 'src/a.ts', lines(42));
    const resolver = new ReferenceResolver([cwd]);
    expect(resolver.resolve(ref('src/a.ts', { line: 42 }))).toMatchObject({ status: 'resolved', lineCount: 42 });
    expect(resolver.resolve(ref('src/a.ts', { line: 90 }))).toEqual({
      status: 'broken',
      reason: 'line 90 is past the end of src/a.ts (42 lines)',
    });
  });

  it('counts a last line that has no newline', () => {
    write(cwd, 'a.txt', 'one\ntwo\nthree');
    expect(new ReferenceResolver([cwd]).resolve(ref('a.txt', { line: 3 }))).toMatchObject({ status: 'resolved', lineCount: 3 });
  });

  it('counts lines across read chunks', () => {
    write(cwd, 'big.txt', 'x'.repeat(300_000) + '\n' + lines(60_000) + 'tail'); // over 1 MB: several reads
    expect(new ReferenceResolver([cwd]).resolve(ref('big.txt'))).toMatchObject({ status: 'resolved', lineCount: 60_002 });
  });

  it('opens an empty file at line 1 but no further', () => {
    write(cwd, 'empty.ts', '');
    const resolver = new ReferenceResolver([cwd]);
    expect(resolver.resolve(ref('empty.ts', { line: 1 }))).toMatchObject({ status: 'resolved', lineCount: 0 });
    expect(resolver.resolve(ref('empty.ts', { line: 2 }))).toEqual({
      status: 'broken',
      reason: 'line 2 is past the end of empty.ts (0 lines)',
    });
  });

  it('clamps a range that runs past the end', () => {
    write(cwd, 'src/a.ts', lines(10));
    expect(new ReferenceResolver([cwd]).resolve(ref('src/a.ts', { line: 8, endLine: 30 }))).toMatchObject({
      status: 'resolved',
      lineCount: 10,
      clamped: true,
    });
  });

  it('takes the lines of a file over 50 MB on trust, without reading it', () => {
    const file = path.join(cwd, 'huge.bin');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 51 * 1024 * 1024); // sparse: no 51 MB written to disk
    expect(new ReferenceResolver([cwd]).resolve(ref('huge.bin', { line: 9_000_000 }))).toEqual({
      status: 'resolved',
      absolutePath: file,
      lineCount: Number.POSITIVE_INFINITY,
    });
  });
});

describe('folders and files that cannot be read', () => {
  it('resolves a folder without a line, and refuses one with a line', () => {
    fs.mkdirSync(path.join(cwd, 'src/utils'), { recursive: true });
    const resolver = new ReferenceResolver([cwd]);
    expect(resolver.resolve(ref('src/utils'))).toEqual({ status: 'resolved', absolutePath: path.join(cwd, 'src/utils'), lineCount: 0 });
    expect(resolver.resolve(ref('src/utils', { line: 3 }))).toEqual({ status: 'broken', reason: 'src/utils is a folder, not a file' });
  });

  (process.platform === 'win32' ? it.skip : it)('refuses a FIFO instead of blocking on it', () => {
    execFileSync('mkfifo', [path.join(cwd, 'pipe')]);
    expect(new ReferenceResolver([cwd]).resolve(ref('pipe', { line: 1 }))).toEqual({
      status: 'broken',
      reason: 'cannot read pipe: it is not a regular file',
    });
  });

  (process.platform === 'win32' ? it.skip : it)('reports a symlink loop instead of throwing', () => {
    fs.symlinkSync(path.join(cwd, 'loop-b.ts'), path.join(cwd, 'loop-a.ts'));
    fs.symlinkSync(path.join(cwd, 'loop-a.ts'), path.join(cwd, 'loop-b.ts'));
    expect(new ReferenceResolver([cwd]).resolve(ref('loop-a.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: 'cannot read loop-a.ts: too many symbolic links',
    });
  });

  it('reports a file it may not read instead of throwing', () => {
    const file = write(cwd, 'secret.ts', lines(3));
    mockDeniedPaths.add(file);
    try {
      expect(new ReferenceResolver([cwd]).resolve(ref('secret.ts', { line: 1 }))).toEqual({
        status: 'broken',
        reason: 'cannot read secret.ts: permission denied',
      });
    } finally {
      mockDeniedPaths.delete(file);
    }
  });

  it('never throws on a path the file system rejects', () => {
    const resolver = new ReferenceResolver([cwd]);
    expect(() => resolver.resolve(ref('a\u0000b.ts', { line: 1 }))).not.toThrow();
    expect(resolver.resolve(ref(`${'x'.repeat(5000)}.ts`, { line: 1 }))).toMatchObject({ status: 'broken' });
  });
});

describe('caching', () => {
  it('looks at each file once per instance', () => {
    const file = write(cwd, 'src/a.ts', lines(5));
    const resolver = new ReferenceResolver([cwd]);
    expect(resolver.resolve(ref('src/a.ts', { line: 5 }))).toMatchObject({ status: 'resolved' });
    fs.rmSync(file);
    // The first answer stands for the rest of this render; a new render sees the change.
    expect(resolver.resolve(ref('src/a.ts', { line: 2 }))).toMatchObject({ status: 'resolved', lineCount: 5 });
    expect(new ReferenceResolver([cwd]).resolve(ref('src/a.ts', { line: 2 }))).toMatchObject({ status: 'broken' });
  });
});
