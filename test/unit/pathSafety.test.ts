// The checks run on review paths before any file-system call, on both path grammars: Windows is
// emulated with path.win32 rather than skipped, so UNC, device and drive forms are tested everywhere.

import * as path from 'path';
import { candidatePaths, isWithin, refusedPathReason } from '../../shared/pathSafety';
import { parseLinkTarget } from '../../shared/links';

const SHARE = 'network shares and device paths are not opened from a review; use a path in the workspace';

describe('refusedPathReason', () => {
  it.each([
    '\\\\host\\share\\a.ts',
    '//host/share/a.ts',
    '\\\\?\\C:\\a.ts',
    '\\\\.\\PhysicalDrive0',
    '\\\\?\\UNC\\host\\share',
    '/\\host\\share',
    '\\/host/share',
    'file://host/share/a.ts',
    'FILE:\\\\host\\share',
  ])('refuses %s as a share or device', (p) => {
    expect(refusedPathReason(p)).toBe(SHARE);
  });

  it('refuses a NUL anywhere', () => {
    expect(refusedPathReason('src/a.ts\0.png')).toBe('the path contains a NUL character');
  });

  it.each([
    'src/a.ts',
    '/home/u/a.ts',
    'C:\\src\\a.ts',
    'c:/a.ts',
    '\\src\\a.ts',
    'file:///C:/x',
    'file://localhost/x',
  ])('accepts %s', (p) => {
    expect(refusedPathReason(p)).toBeUndefined();
  });
});

describe('candidatePaths on Windows (path.win32)', () => {
  const roots = ['C:\\work\\app', 'D:\\libs'];

  it('joins a relative path onto each root, in order', () => {
    expect(candidatePaths('src\\a.ts', roots, path.win32)).toEqual({
      kind: 'candidates',
      paths: ['C:\\work\\app\\src\\a.ts', 'D:\\libs\\src\\a.ts'],
    });
    expect(candidatePaths('src/a.ts', roots, path.win32)).toEqual({
      kind: 'candidates',
      paths: ['C:\\work\\app\\src\\a.ts', 'D:\\libs\\src\\a.ts'],
    });
  });

  it('takes a drive path inside a root, whatever the case of the drive letter or slashes', () => {
    expect(candidatePaths('C:\\work\\app\\a.ts', roots, path.win32)).toEqual({
      kind: 'candidates',
      paths: ['C:\\work\\app\\a.ts'],
    });
    expect(candidatePaths('c:/work/app/a.ts', roots, path.win32)).toEqual({
      kind: 'candidates',
      paths: ['c:\\work\\app\\a.ts'],
    });
  });

  it('says "outside" for another drive, a sibling folder, or an escape with ..', () => {
    for (const p of [
      'E:\\a.ts',
      'C:\\work\\other\\a.ts',
      'C:\\work\\app2\\a.ts',
      '..\\..\\..\\Windows\\win.ini',
      'C:\\Windows\\System32\\drivers\\etc\\hosts',
    ]) {
      expect([p, candidatePaths(p, roots, path.win32)]).toEqual([p, expect.objectContaining({ kind: 'outside' })]);
    }
  });

  it('refuses UNC and device paths before joining or resolving anything', () => {
    for (const p of ['\\\\host\\share\\a.ts', '//host/share/a.ts', '\\\\?\\C:\\work\\app\\a.ts', '\\\\.\\COM1']) {
      expect([p, candidatePaths(p, roots, path.win32)]).toEqual([p, { kind: 'refused', reason: SHARE }]);
    }
  });

  it('keeps a relative path that leaves one root for another', () => {
    expect(candidatePaths('..\\app\\a.ts', ['C:\\work\\lib', 'C:\\work'], path.win32)).toEqual({
      kind: 'candidates',
      paths: ['C:\\work\\app\\a.ts'],
    });
  });
});

describe('candidatePaths on POSIX (path.posix)', () => {
  const roots = ['/home/u/app'];

  it('reads backslashes as separators and never joins a drive path onto a root', () => {
    expect(candidatePaths('src\\a.ts', roots, path.posix)).toEqual({
      kind: 'candidates',
      paths: ['/home/u/app/src/a.ts'],
    });
    expect(candidatePaths('C:\\src\\a.ts', roots, path.posix)).toEqual(expect.objectContaining({ kind: 'outside' }));
    expect(candidatePaths('c:/a.ts', roots, path.posix)).toEqual(expect.objectContaining({ kind: 'outside' }));
  });

  it('normalises spellings of one path to one candidate', () => {
    for (const p of ['./a.ts', 'x/../a.ts', 'a.ts', '/home/u/app/./a.ts']) {
      expect(candidatePaths(p, roots, path.posix)).toEqual({ kind: 'candidates', paths: ['/home/u/app/a.ts'] });
    }
  });

  it('says "outside" for paths beyond the roots and refuses shares', () => {
    expect(candidatePaths('/etc/passwd', roots, path.posix)).toEqual({ kind: 'outside', paths: ['/etc/passwd'] });
    expect(candidatePaths('/home/u/app-other/a.ts', roots, path.posix)).toEqual(
      expect.objectContaining({ kind: 'outside' }),
    );
    expect(candidatePaths('../../../etc/passwd', roots, path.posix)).toEqual(
      expect.objectContaining({ kind: 'outside' }),
    );
    expect(candidatePaths('//host/share', roots, path.posix)).toEqual({ kind: 'refused', reason: SHARE });
  });

  it('isWithin is lexical and exact about prefixes', () => {
    expect(isWithin('/a/b', '/a/b', path.posix)).toBe(true);
    expect(isWithin('/a/b', '/a/bc', path.posix)).toBe(false);
    expect(isWithin('/a/b', '/a/b/..foo', path.posix)).toBe(true);
  });
});

describe('the link grammar with Windows paths', () => {
  it('parses drive paths with a line, and leaves a share for the resolver to refuse', () => {
    expect(parseLinkTarget('C:\\a.ts:3')).toEqual({ kind: 'file', path: 'C:\\a.ts', line: 3 });
    expect(parseLinkTarget('c:/a.ts#L3')).toEqual({ kind: 'file', path: 'c:/a.ts', line: 3 });
    expect(parseLinkTarget('file://host/share/a.ts')).toBeUndefined();
    const share = parseLinkTarget('\\\\host\\share\\a.ts:3');
    expect(share === undefined || (share.kind === 'file' && refusedPathReason(share.path) === SHARE)).toBe(true);
  });
});
