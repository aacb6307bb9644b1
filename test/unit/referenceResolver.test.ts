// ReferenceResolver against real files in a temporary folder: search order, line checks, and every
// way a reference can be broken without the resolver throwing.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FileReference } from '../../shared/links';
import { OUTSIDE_ROOTS, ReferenceResolver, resolveOne } from '../../extension/src/render/referenceResolver';
import { defaultBudget, FileFactsLookup, LineCountCache } from '../../extension/src/render/fileFacts';

// chmod 000 does not stop root (CI runs as root), so permission denial is simulated at the fs layer.
const mockDeniedPaths = new Set<string>();
jest.mock('fs', () => {
  const actual = jest.requireActual<typeof import('fs')>('fs');
  return {
    ...actual,
    promises: {
      ...actual.promises,
      open: async (target: import('fs').PathLike, ...rest: unknown[]) => {
        if (mockDeniedPaths.has(String(target)))
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return (actual.promises.open as (...args: unknown[]) => Promise<unknown>)(target, ...rest);
      },
    },
  };
});

const ref = (refPath: string, location: Partial<FileReference> = {}): FileReference => ({
  kind: 'file',
  path: refPath,
  ...location,
});

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
  it('looks in the cwd before the workspace folders', async () => {
    const inCwd = write(cwd, 'src/a.ts', lines(3));
    write(workspace, 'src/a.ts', lines(50));
    expect(await new ReferenceResolver([cwd, workspace]).resolve(ref('src/a.ts', { line: 2 }))).toEqual({
      status: 'resolved',
      absolutePath: inCwd,
      lineCount: 3,
    });
  });

  it('falls back to a workspace folder', async () => {
    const inWorkspace = write(workspace, 'lib/b.py', lines(5));
    const resolution = await new ReferenceResolver([cwd, workspace]).resolve(ref('lib/b.py', { line: 5 }));
    expect(resolution).toEqual({ status: 'resolved', absolutePath: inWorkspace, lineCount: 5 });
  });

  it('takes an absolute path inside a root as it is', async () => {
    const file = write(workspace, 'c.ts', lines(2));
    expect(await new ReferenceResolver([cwd, workspace]).resolve(ref(file, { line: 1 }))).toMatchObject({
      status: 'resolved',
      absolutePath: file,
    });
  });

  it('says the same of a path outside every root whether or not it exists, and never looks', async () => {
    const existing = write(scratch, 'elsewhere/c.ts', lines(2));
    const lookup = new FileFactsLookup(new LineCountCache(), defaultBudget());
    const resolver = new ReferenceResolver([cwd, workspace], { lookup });
    const answers = await Promise.all(
      [
        existing,
        path.join(scratch, 'elsewhere/none.ts'),
        '../elsewhere/c.ts',
        'src/../../elsewhere/c.ts',
        '/etc/passwd',
      ].map((p) => resolver.resolve(ref(p, { line: 1 }))),
    );
    for (const answer of answers)
      expect(answer).toEqual({ status: 'broken', reason: expect.stringContaining(OUTSIDE_ROOTS), outside: true });
    expect(new Set(answers.map((a) => (a as { reason: string }).reason.replace(/^.* is /, '')))).toEqual(
      new Set([OUTSIDE_ROOTS]),
    );
    expect(lookup.stats).toBe(0);
  });

  it('reads a backslash path written on Windows', async () => {
    const file = write(cwd, 'src/win.ts', lines(4));
    const resolution = await new ReferenceResolver([cwd]).resolve(ref('src\\win.ts', { line: 4 }));
    expect(resolution).toMatchObject({ status: 'resolved', absolutePath: file });
  });

  it('never joins a Windows drive path onto a root', async () => {
    // Where a folder may be named "C:", one is made, and it must not make the path resolve.
    if (process.platform !== 'win32') write(cwd, 'C:/src/a.ts', lines(20));
    expect(await new ReferenceResolver([cwd]).resolve(ref('C:/src/a.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: `C:/src/a.ts is ${OUTSIDE_ROOTS}`,
      outside: true,
    });
  });

  it.each(['\\\\host\\share\\a.ts', '//host/share/a.ts', '\\\\?\\C:\\a.ts', '\\\\.\\PhysicalDrive0', '/\\host\\share'])(
    'refuses the network or device path %s without touching the disk',
    async (p) => {
      const lookup = new FileFactsLookup(new LineCountCache(), defaultBudget());
      const answer = await new ReferenceResolver([cwd], { lookup }).resolve(ref(p, { line: 1 }));
      expect(answer).toEqual({
        status: 'broken',
        reason: expect.stringContaining('network shares and device paths are not opened'),
      });
      expect(lookup.stats).toBe(0);
    },
  );

  it('says where it looked when the file is missing', async () => {
    expect(await new ReferenceResolver([cwd, workspace]).resolve(ref('src/x.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: `no file src/x.ts in ${cwd} or ${workspace}`,
    });
  });

  it('summarises a long list of folders', async () => {
    const roots = ['/r1', '/r2', '/r3', '/r4', '/r5'];
    const resolution = await new ReferenceResolver(roots).resolve(ref('src/x.ts'));
    expect(resolution).toEqual({ status: 'broken', reason: 'no file src/x.ts in /r1, /r2, /r3 or 2 other folders' });
  });

  it('says so when there is nowhere to look', async () => {
    const resolution = await new ReferenceResolver([]).resolve(ref('src/x.ts', { line: 3 }));
    expect(resolution).toEqual({
      status: 'broken',
      reason: 'no file src/x.ts: there is no working folder or workspace folder to look in',
    });
  });

  it('treats a path through a file as missing', async () => {
    write(cwd, 'src/a.ts', lines(1));
    expect(await new ReferenceResolver([cwd]).resolve(ref('src/a.ts/b.ts', { line: 1 }))).toMatchObject({
      status: 'broken',
    });
  });
});

describe('checking the line', () => {
  it('accepts the last line and refuses the one after it', async () => {
    write(cwd, 'src/a.ts', lines(42));
    const resolver = new ReferenceResolver([cwd]);
    expect(await resolver.resolve(ref('src/a.ts', { line: 42 }))).toMatchObject({ status: 'resolved', lineCount: 42 });
    expect(await resolver.resolve(ref('src/a.ts', { line: 90 }))).toEqual({
      status: 'broken',
      reason: 'line 90 is past the end of src/a.ts (42 lines)',
    });
  });

  it('counts a last line that has no newline', async () => {
    write(cwd, 'a.txt', 'one\ntwo\nthree');
    expect(await new ReferenceResolver([cwd]).resolve(ref('a.txt', { line: 3 }))).toMatchObject({
      status: 'resolved',
      lineCount: 3,
    });
  });

  it('counts lines across read chunks', async () => {
    write(cwd, 'big.txt', 'x'.repeat(300_000) + '\n' + lines(60_000) + 'tail'); // over 1 MB: several reads
    expect(await new ReferenceResolver([cwd]).resolve(ref('big.txt'))).toMatchObject({
      status: 'resolved',
      lineCount: 60_002,
    });
  });

  it('opens an empty file at line 1 but no further', async () => {
    write(cwd, 'empty.ts', '');
    const resolver = new ReferenceResolver([cwd]);
    expect(await resolver.resolve(ref('empty.ts', { line: 1 }))).toMatchObject({ status: 'resolved', lineCount: 0 });
    expect(await resolver.resolve(ref('empty.ts', { line: 2 }))).toEqual({
      status: 'broken',
      reason: 'line 2 is past the end of empty.ts (0 lines)',
    });
  });

  it('clamps a range that runs past the end', async () => {
    write(cwd, 'src/a.ts', lines(10));
    expect(await new ReferenceResolver([cwd]).resolve(ref('src/a.ts', { line: 8, endLine: 30 }))).toMatchObject({
      status: 'resolved',
      lineCount: 10,
      clamped: true,
    });
  });

  it('takes the lines of a file over 50 MB on trust, without reading it', async () => {
    const file = path.join(cwd, 'huge.bin');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 51 * 1024 * 1024); // sparse: no 51 MB written to disk
    expect(await new ReferenceResolver([cwd]).resolve(ref('huge.bin', { line: 9_000_000 }))).toEqual({
      status: 'resolved',
      absolutePath: file,
      lineCount: Number.POSITIVE_INFINITY,
    });
  });
});

describe('folders and files that cannot be read', () => {
  it('resolves a folder without a line, and refuses one with a line', async () => {
    fs.mkdirSync(path.join(cwd, 'src/utils'), { recursive: true });
    const resolver = new ReferenceResolver([cwd]);
    expect(await resolver.resolve(ref('src/utils'))).toEqual({
      status: 'resolved',
      absolutePath: path.join(cwd, 'src/utils'),
      lineCount: 0,
    });
    expect(await resolver.resolve(ref('src/utils', { line: 3 }))).toEqual({
      status: 'broken',
      reason: 'src/utils is a folder, not a file',
    });
  });

  // FIFOs (mkfifo) and symlink loops are POSIX things: on Windows these two have nothing to test.
  (process.platform === 'win32' ? it.skip : it)('refuses a FIFO instead of blocking on it', async () => {
    execFileSync('mkfifo', [path.join(cwd, 'pipe')]);
    expect(await new ReferenceResolver([cwd]).resolve(ref('pipe', { line: 1 }))).toEqual({
      status: 'broken',
      reason: 'cannot read pipe: it is not a regular file',
    });
  });

  (process.platform === 'win32' ? it.skip : it)('reports a symlink loop instead of throwing', async () => {
    fs.symlinkSync(path.join(cwd, 'loop-b.ts'), path.join(cwd, 'loop-a.ts'));
    fs.symlinkSync(path.join(cwd, 'loop-a.ts'), path.join(cwd, 'loop-b.ts'));
    expect(await new ReferenceResolver([cwd]).resolve(ref('loop-a.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: 'cannot read loop-a.ts: too many symbolic links',
    });
  });

  it('reports a file it may not read instead of throwing', async () => {
    const file = write(cwd, 'secret.ts', lines(3));
    mockDeniedPaths.add(file);
    try {
      expect(await new ReferenceResolver([cwd]).resolve(ref('secret.ts', { line: 1 }))).toEqual({
        status: 'broken',
        reason: 'cannot read secret.ts: permission denied',
      });
    } finally {
      mockDeniedPaths.delete(file);
    }
  });

  it('never throws on a path the file system rejects', async () => {
    const resolver = new ReferenceResolver([cwd]);
    await expect(resolver.resolve(ref('a\u0000b.ts', { line: 1 }))).resolves.toEqual({
      status: 'broken',
      reason: 'a\u0000b.ts is refused: the path contains a NUL character',
    });
    await expect(resolver.resolve(ref(`${'x'.repeat(5000)}.ts`, { line: 1 }))).resolves.toMatchObject({
      status: 'broken',
    });
  });
});

describe('links, judged by where they really lead', () => {
  it('says a file reached through a link out of the roots is outside, exists or not, and reads none of it', async () => {
    write(scratch, 'elsewhere/secret.ts', lines(9));
    fs.symlinkSync(path.join(scratch, 'elsewhere'), path.join(workspace, 'out'));
    fs.symlinkSync(path.join(scratch, 'elsewhere', 'secret.ts'), path.join(workspace, 'key.ts'));
    fs.symlinkSync('/', path.join(workspace, 'rootlink'));
    const cache = new LineCountCache();
    const resolver = new ReferenceResolver([workspace], { cache });
    for (const p of [
      'out/secret.ts',
      'out/none.ts',
      'out/deep/none.ts',
      'key.ts',
      'rootlink/etc/passwd',
      'rootlink/etc/none',
      'out',
    ]) {
      expect([p, await resolver.resolve(ref(p, { line: 1 }))]).toEqual([
        p,
        { status: 'broken', reason: `${p} is ${OUTSIDE_ROOTS}`, outside: true },
      ]);
    }
    expect(cache.reads).toBe(0);
  });

  it('follows links that stay inside, a root that is itself a link, and, once the user agreed, any link', async () => {
    const file = write(workspace, 'src/a.ts', lines(4));
    fs.symlinkSync(path.join(workspace, 'src'), path.join(workspace, 'inner'));
    fs.symlinkSync(file, path.join(workspace, 'alias.ts'));
    fs.symlinkSync(workspace, path.join(scratch, 'ws-link'));
    fs.symlinkSync(path.join(workspace, 'gone.ts'), path.join(workspace, 'dangling.ts'));
    write(scratch, 'elsewhere/secret.ts', lines(9));
    fs.symlinkSync(path.join(scratch, 'elsewhere'), path.join(workspace, 'out'));
    const resolver = new ReferenceResolver([workspace]);
    expect(await resolver.resolve(ref('inner/a.ts', { line: 4 }))).toEqual({
      status: 'resolved',
      absolutePath: path.join(workspace, 'inner/a.ts'),
      lineCount: 4,
    });
    expect(await resolver.resolve(ref('alias.ts', { line: 4 }))).toMatchObject({ status: 'resolved', lineCount: 4 });
    expect(await resolver.resolve(ref('dangling.ts', { line: 1 }))).toEqual({
      status: 'broken',
      reason: `no file dangling.ts in ${workspace}`,
    });
    expect(
      await new ReferenceResolver([path.join(scratch, 'ws-link')]).resolve(ref('src/a.ts', { line: 4 })),
    ).toMatchObject({ status: 'resolved', lineCount: 4 });
    expect(await resolveOne([workspace], ref('out/secret.ts', { line: 9 }), { outsideRoots: 'lookUp' })).toMatchObject({
      status: 'resolved',
      lineCount: 9,
    });
  });
});

describe('caching', () => {
  it('stats each spelling once and reads each file once, across renders', async () => {
    const file = write(cwd, 'src/b.ts', lines(7));
    fs.symlinkSync(file, path.join(cwd, 'alias.ts'));
    fs.linkSync(file, path.join(cwd, 'hard.ts'));
    const cache = new LineCountCache();
    const spellings = [
      'src/b.ts',
      './src/b.ts',
      'src/../src/b.ts',
      'src/./b.ts',
      file,
      'alias.ts',
      'hard.ts',
      'src//b.ts',
    ];
    const lookup = new FileFactsLookup(cache, defaultBudget());
    const resolver = new ReferenceResolver([cwd], { lookup });
    const many = Array.from({ length: 1000 }, (_, i) =>
      resolver.resolve(ref(spellings[i % spellings.length], { line: (i % 7) + 1 })),
    );
    for (const answer of await Promise.all(many)) expect(answer).toMatchObject({ status: 'resolved', lineCount: 7 });
    expect(lookup.stats).toBe(3); // src/b.ts, alias.ts, hard.ts: the other spellings normalise to the first
    expect(cache.reads).toBe(1); // one file, by identity
    // A second render re-stats (the file may have changed) but does not read it again.
    const again = new FileFactsLookup(cache, defaultBudget());
    await new ReferenceResolver([cwd], { lookup: again }).resolve(ref('alias.ts', { line: 7 }));
    expect(cache.reads).toBe(1);
    fs.appendFileSync(file, 'one more\n');
    const changed = await new ReferenceResolver([cwd], { cache }).resolve(ref('hard.ts', { line: 8 }));
    expect(changed).toMatchObject({ status: 'resolved', lineCount: 8 });
    expect(cache.reads).toBe(2);
  });

  it('keeps at most its capacity of line counts, dropping the least recently used', () => {
    const cache = new LineCountCache(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });

  it('looks at each file once per instance', async () => {
    const file = write(cwd, 'src/a.ts', lines(5));
    const resolver = new ReferenceResolver([cwd]);
    expect(await resolver.resolve(ref('src/a.ts', { line: 5 }))).toMatchObject({ status: 'resolved' });
    fs.rmSync(file);
    // The first answer stands for the rest of this render; a new render sees the change.
    expect(await resolver.resolve(ref('src/a.ts', { line: 2 }))).toMatchObject({ status: 'resolved', lineCount: 5 });
    expect(await new ReferenceResolver([cwd]).resolve(ref('src/a.ts', { line: 2 }))).toMatchObject({
      status: 'broken',
    });
  });
});

describe('the I/O budget', () => {
  it('reports references past the file budget as not checked, never as broken', async () => {
    for (let i = 0; i < 5; i++) write(cwd, `f${i}.ts`, lines(3));
    const lookup = new FileFactsLookup(new LineCountCache(), {
      files: 3,
      bytes: 1 << 20,
      deadline: Date.now() + 60_000,
    });
    const resolver = new ReferenceResolver([cwd], { lookup });
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await resolver.resolve(ref(`f${i}.ts`, { line: 1 }))).status);
    expect(answers).toEqual(['resolved', 'resolved', 'resolved', 'unchecked', 'unchecked']);
  });

  it("starts the default budget's clock at the first lookup, not when the resolver is made (before a long parse)", async () => {
    write(cwd, 'late.ts', lines(3));
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      const resolver = new ReferenceResolver([cwd]);
      // A parse of several seconds, longer than the budget's 1.5 s.
      now.mockReturnValue(1_000_000 + 5_000);
      expect((await resolver.resolve(ref('late.ts', { line: 2 }))).status).toBe('resolved');
    } finally {
      now.mockRestore();
    }
  });

  it('does not count lines past the byte budget or the deadline', async () => {
    write(cwd, 'big.ts', lines(1000));
    const bytes = new FileFactsLookup(new LineCountCache(), { files: 10, bytes: 100, deadline: Date.now() + 60_000 });
    expect(await new ReferenceResolver([cwd], { lookup: bytes }).resolve(ref('big.ts', { line: 1 }))).toMatchObject({
      status: 'unchecked',
    });
    const late = new FileFactsLookup(new LineCountCache(), { files: 10, bytes: 1 << 20, deadline: Date.now() - 1 });
    expect(await new ReferenceResolver([cwd], { lookup: late }).resolve(ref('big.ts', { line: 1 }))).toMatchObject({
      status: 'unchecked',
    });
  });
});
