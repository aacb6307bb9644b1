// The link grammar, as a table: what must become a reference, and (at least as many) what must not.

import { findReferences, formatReference, parseLinkTarget, type LinkTarget } from '../../shared/links';
import { syncGrowthAt4x } from './growth';

const file = (
  path: string,
  location: Omit<Extract<LinkTarget, { kind: 'file' }>, 'kind' | 'path'> = {},
): LinkTarget => ({
  kind: 'file',
  path,
  ...location,
});

describe('parseLinkTarget: links', () => {
  it.each<[string, LinkTarget]>([
    ['src/a.ts:12', file('src/a.ts', { line: 12 })],
    ['src/a.ts:12:3', file('src/a.ts', { line: 12, column: 3 })],
    ['src/a.ts:10-20', file('src/a.ts', { line: 10, endLine: 20 })],
    ['src/a.ts:10:3-20:5', file('src/a.ts', { line: 10, column: 3, endLine: 20, endColumn: 5 })],
    ['src/a.ts#L10', file('src/a.ts', { line: 10 })],
    ['src/a.ts#L10-L20', file('src/a.ts', { line: 10, endLine: 20 })],
    ['src/a.ts#L10-20', file('src/a.ts', { line: 10, endLine: 20 })],
    ['src/a.ts#L10C3', file('src/a.ts', { line: 10, column: 3 })],
    ['src/a.ts#L10C3-L20C5', file('src/a.ts', { line: 10, column: 3, endLine: 20, endColumn: 5 })],
    ['a.ts:12', file('a.ts', { line: 12 })],
    ['/home/u/a.ts:3', file('/home/u/a.ts', { line: 3 })],
    ['C:\\src\\a.ts:12', file('C:\\src\\a.ts', { line: 12 })],
    ['C:/src/a.ts:12', file('C:/src/a.ts', { line: 12 })],
    ['C:\\a.ts:3', file('C:\\a.ts', { line: 3 })],
    ['c:/a.ts#L3', file('c:/a.ts', { line: 3 })],
    ['C:%5Csrc%5Ca.ts:12', file('C:\\src\\a.ts', { line: 12 })],
    ['file:///home/u/a.ts#L3', file('/home/u/a.ts', { line: 3 })],
    ['file:///home/u/a.ts:3', file('/home/u/a.ts', { line: 3 })],
    ['file:///C:/x/a.ts', file('C:/x/a.ts')],
    ['file://localhost/etc/hosts', file('/etc/hosts')],
    ['file:///home/u/my%20file.ts#L2', file('/home/u/my file.ts', { line: 2 })],
    ['my%20file.ts:3', file('my file.ts', { line: 3 })],
    ['src/%C3%A9t%C3%A9.ts#L3', file('src/été.ts', { line: 3 })],
    ['100%25.ts:1', file('100%.ts', { line: 1 })],
    ['src/a.ts', file('src/a.ts')],
    ['package.json', file('package.json')],
    ['Makefile', file('Makefile')],
    ['Dockerfile:4', file('Dockerfile', { line: 4 })],
    ['.gitignore', file('.gitignore')],
    ['src/utils', file('src/utils')],
    ['docs/setup.md#installation', file('docs/setup.md')],
    ['../lib/b.py:7', file('../lib/b.py', { line: 7 })],
    ['node_modules/@types/node/index.d.ts:9', file('node_modules/@types/node/index.d.ts', { line: 9 })],
    ['app/(group)/page.tsx:5', file('app/(group)/page.tsx', { line: 5 })],
    ['  src/a.ts:12  ', file('src/a.ts', { line: 12 })],
    ['src/a.ts:12-12', file('src/a.ts', { line: 12, endLine: 12 })],
    ['http://example.com/a', { kind: 'external', url: 'http://example.com/a' }],
    ['HTTPS://example.com/x.ts:12', { kind: 'external', url: 'HTTPS://example.com/x.ts:12' }],
  ])('%j is %j', (target, expected) => {
    expect(parseLinkTarget(target)).toEqual(expected);
  });
});

describe('parseLinkTarget: not links', () => {
  it.each([
    '10:30',
    '12:30:45',
    'localhost:8080',
    '127.0.0.1:8080',
    'example.com:443',
    'example.com:8080',
    'foo.io:3000',
    'v1.2:3',
    'v1.2',
    '1.2.3:4',
    'foo:bar',
    'a.ts:0',
    'a.ts#L0',
    'src/a.ts:0',
    'src/a.ts:20-10',
    'src/a.ts:1:2:3',
    'src/a.ts:1234567890',
    'ratio 3:2',
    'std::vector',
    'C++:11',
    'mailto:x@y.z',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java%09script:alert(1)',
    '%6Aavascript:alert(1)',
    'javascript:alert(1)//a.ts:3',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'command:workbench.action.terminal.new',
    'vscode://file/home/u/a.ts:3',
    'ftp://example.com/a.ts',
    'ssh://host/a.ts:3',
    'file://server/share/a.ts',
    'file:relative.ts',
    'http:no-slashes',
    '//example.com/a.js:3',
    'src/a.ts\u0000:3',
    'src/a%00.ts:3',
    'src/a.ts\n:3',
    'src/a\u202e.ts:3',
    'Map<K, V>',
    'src/*.ts',
    'readme',
    '',
    '   ',
    '#L10',
    '#section',
    'x'.repeat(5000) + '.ts:1',
    'example.com',
    'foo.io',
    'localhost',
    'www.example.com:80',
    '10',
    'a.ts:',
    'a.ts:-1',
    'src/a.ts:1-',
    'src/a.ts:12abc',
    'src/a:b.ts',
    'v1.2#L3',
    'src/a.ts#L5-L3',
    'src/a.ts#L3C0',
    '[::1]:8080',
    'git@github.com:org/repo.git',
    'https://',
    'javascript://%0Aalert(1)',
  ])('%j is not a link', (target) => {
    expect(parseLinkTarget(target)).toBeUndefined();
  });
});

describe('findReferences', () => {
  it.each<[string, string[]]>([
    ['see src/a.ts:12 for details', ['src/a.ts:12']],
    ['see src/a.ts:12.', ['src/a.ts:12']],
    ['src/a.ts:12, src/b.ts:3; and c.py:9)', ['src/a.ts:12', 'src/b.ts:3', 'c.py:9']],
    ['(src/a.ts:12)', ['src/a.ts:12']],
    ['call(src/a.ts:12)', ['src/a.ts:12']],
    ['in src/a.ts#L10-L20 and src/b.ts:1:2-3:4', ['src/a.ts#L10-L20', 'src/b.ts:1:2-3:4']],
    ['at C:\\src\\a.ts:12: boom', ['C:\\src\\a.ts:12']],
    ['"src/a.ts:3"', ['src/a.ts:3']],
    ['file:///home/u/a.ts:3', ['file:///home/u/a.ts:3']],
    ['a.ts:12,13', ['a.ts:12']],
    ['(Makefile:3) and Dockerfile#L2', ['Makefile:3', 'Dockerfile#L2']],
    ['[src/a.ts:4]', ['src/a.ts:4']],
    ['at 10:30 on localhost:8080 and 127.0.0.1:80', []],
    ['http://x.com/a.ts:12', []],
    ['mail me at dev@example.com:22', []],
    ['std::vector and C++:11 and v1.2:3 and ratio 3:2', []],
    ['src/a.ts without a line', []],
    ['a.ts:0 is not a line', []],
    ['javascript:alert(1) data:text/html,x:1', []],
  ])('%j finds %j', (text, expected) => {
    expect(findReferences(text).map((hit) => hit.text)).toEqual(expected);
  });

  it('reports positions in the text', () => {
    const text = 'Bug at (src/a.ts:12).';
    const [hit] = findReferences(text);
    expect(text.slice(hit.start, hit.end)).toBe('src/a.ts:12');
    expect(hit.reference).toEqual({ kind: 'file', path: 'src/a.ts', line: 12 });
  });

  it('takes linear time on hostile input: 4x the text, well under 16x the time', () => {
    for (const piece of ['a:1', ':1', 'x#L1', '(((:1', 'a/'.repeat(3) + ':1 ']) {
      const text = (bytes: number) => piece.repeat(Math.ceil(bytes / piece.length));
      const ratio = syncGrowthAt4x((bytes) => {
        const input = text(bytes);
        return () => findReferences(input);
      }, 512 * 1024);
      // Linear is ~4; quadratic would be ~16.
      expect([piece, ratio < 10]).toEqual([piece, true]);
    }
  });
});

describe('formatReference', () => {
  it.each<[string, string]>([
    ['src/a.ts', 'src/a.ts'],
    ['src/a.ts#L10', 'src/a.ts:10'],
    ['src/a.ts#L10-L20', 'src/a.ts:10-20'],
    ['src/a.ts#L10C3', 'src/a.ts:10:3'],
    ['src/a.ts#L10C3-L20C5', 'src/a.ts:10:3-20:5'],
    ['src/a.ts#L10-L10', 'src/a.ts:10'],
  ])('%j reads as %j, which parses back to the same reference', (target, expected) => {
    const reference = parseLinkTarget(target);
    if (reference?.kind !== 'file') throw new Error(`${target} is not a file reference`);
    expect(formatReference(reference)).toBe(expected);
    expect(parseLinkTarget(expected)).toEqual(
      reference.endLine === reference.line && reference.column === undefined
        ? { ...reference, endLine: undefined }
        : reference,
    );
  });
});
