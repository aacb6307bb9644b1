import { fileDiffOf, parsePatch, rightHunkHolding } from '../../../extension/src/publish/diffHunks';

describe('parsePatch', () => {
  test("a modified file: each hunk's lines on both sides", () => {
    const patch = [
      '@@ -1,4 +1,5 @@',
      ' import a',
      '-const x = 1;',
      '+const x = 2;',
      '+const y = 3;',
      ' ',
      ' export {}',
      '@@ -20,3 +21,2 @@ function f() {',
      ' a();',
      '-b();',
      ' c();',
    ].join('\n');
    expect(parsePatch(patch)).toEqual([
      { right: { start: 1, end: 5 }, left: { start: 1, end: 4 } },
      { right: { start: 21, end: 22 }, left: { start: 20, end: 22 } },
    ]);
  });

  test('"\\ No newline at end of file" counts on neither side', () => {
    const patch = [
      '@@ -1,2 +1,2 @@',
      ' a',
      '-b',
      '\\ No newline at end of file',
      '+b',
      '\\ No newline at end of file',
    ].join('\n');
    expect(parsePatch(patch)).toEqual([{ right: { start: 1, end: 2 }, left: { start: 1, end: 2 } }]);
  });

  test('an added file has only a right side, a deleted one only a left side', () => {
    expect(parsePatch('@@ -0,0 +1,3 @@\n+a\n+b\n+c')).toEqual([{ right: { start: 1, end: 3 } }]);
    expect(parsePatch('@@ -1,2 +0,0 @@\n-a\n-b\n')).toEqual([{ left: { start: 1, end: 2 } }]);
  });

  test('a count left out is 1', () => {
    expect(parsePatch('@@ -3 +3 @@\n-a\n+b')).toEqual([{ right: { start: 3, end: 3 }, left: { start: 3, end: 3 } }]);
  });

  test('an empty line inside a hunk is a context line whose space was trimmed', () => {
    expect(parsePatch('@@ -1,3 +1,3 @@\n a\n\n-b\n+c')).toEqual([
      { right: { start: 1, end: 3 }, left: { start: 1, end: 3 } },
    ]);
  });

  test.each([
    ['no header', ' a\n+b'],
    ['counts that disagree with the header', '@@ -1,2 +1,3 @@\n a\n+b'],
    ['a line of unknown kind', '@@ -1 +1 @@\n*a'],
    ['a git file header', 'diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b'],
  ])('a doubtful patch is refused: %s', (_, patch) => {
    expect(parsePatch(patch)).toBeUndefined();
  });
});

describe('fileDiffOf', () => {
  test('a renamed file keeps its old path, and its hunks are on the new one', () => {
    const diff = fileDiffOf({
      filename: 'src/new.ts',
      previous_filename: 'src/old.ts',
      status: 'renamed',
      patch: '@@ -5,2 +5,2 @@\n a\n-b\n+c',
    });
    expect(diff).toEqual({
      path: 'src/new.ts',
      previousPath: 'src/old.ts',
      status: 'renamed',
      hunks: [{ right: { start: 5, end: 6 }, left: { start: 5, end: 6 } }],
    });
  });

  test('a rename without changes, a binary file and a file too large have no patch: nothing in them takes a comment', () => {
    for (const file of [
      { filename: 'src/moved.ts', previous_filename: 'src/was.ts', status: 'renamed' },
      { filename: 'logo.png', status: 'modified' },
      { filename: 'big.json', status: 'modified', patch: '' },
    ]) {
      const diff = fileDiffOf(file);
      expect(diff).toMatchObject({ hunks: [], uncommentable: 'no-patch' });
      expect(rightHunkHolding(diff, 1, 1)).toBeUndefined();
    }
  });

  test('a deleted file has no line on the right to comment on', () => {
    const diff = fileDiffOf({ filename: 'gone.ts', status: 'removed', patch: '@@ -1,2 +0,0 @@\n-a\n-b' });
    expect(rightHunkHolding(diff, 1, 1)).toBeUndefined();
  });

  test('a bad patch makes the whole file uncommentable', () => {
    expect(fileDiffOf({ filename: 'x.ts', status: 'modified', patch: '@@ -1 +1,2 @@\n+a' })).toMatchObject({
      hunks: [],
      uncommentable: 'bad-patch',
    });
  });
});

describe('rightHunkHolding', () => {
  const diff = fileDiffOf({
    filename: 'a.ts',
    status: 'modified',
    patch: '@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n@@ -10,2 +11,3 @@\n x\n+y\n z',
  });
  test.each([
    [1, 1, true],
    [1, 4, true],
    [4, 4, true],
    [5, 5, false],
    [11, 13, true],
    [3, 12, false], // two hunks: GitHub needs one
    [10, 11, false],
    [13, 14, false],
  ])('lines %i-%i: %s', (start, end, holds) => {
    expect(rightHunkHolding(diff, start, end) !== undefined).toBe(holds);
  });
});
