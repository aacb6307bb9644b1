import {
  relocate,
  rememberLines,
  shiftForEdit,
  REMEMBERED_LINE_CHARS,
  REMEMBERED_LINES,
} from '../../extension/src/review/anchorText';

const file = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe('remembering and finding again', () => {
  it('remembers the lines of the range, at most REMEMBERED_LINES, with trailing spaces dropped', () => {
    expect(rememberLines(['a  ', 'b', 'c'], { line: 1, endLine: 2 })).toEqual(['a', 'b']);
    expect(rememberLines(file(10), { line: 20, endLine: 20 })).toBeUndefined();
    expect(rememberLines(file(200), { line: 1, endLine: 200 })).toHaveLength(REMEMBERED_LINES);
  });

  it('stays where the lines still are', () => {
    expect(relocate(file(100), ['line 42'], { line: 42, endLine: 42 })).toEqual({ line: 42, endLine: 42 });
  });

  it('follows three lines typed above', () => {
    const lines = file(100);
    lines.splice(10, 0, 'new', 'new', 'new');
    expect(relocate(lines, ['line 42', 'line 43'], { line: 42, endLine: 43 })).toEqual({ line: 45, endLine: 46 });
  });

  it('takes the nearest of several matches, and keeps a long range its length', () => {
    const lines = ['x', 'dup', 'y', 'y', 'y', 'y', 'dup', 'z'];
    expect(relocate(lines, ['dup'], { line: 6, endLine: 6 })).toEqual({ line: 7, endLine: 7 });
    expect(relocate(lines, ['dup'], { line: 3, endLine: 3 })).toEqual({ line: 2, endLine: 2 });
    expect(relocate(['a', ...file(100)], file(50), { line: 1, endLine: 80 })).toEqual({ line: 2, endLine: 81 });
  });

  it('says the code changed when the lines are gone, or were blank and moved', () => {
    expect(relocate(file(10), ['deleted'], { line: 3, endLine: 3 })).toBeUndefined();
    expect(relocate(['a', '', 'b'], [''], { line: 1, endLine: 1 })).toBeUndefined();
    expect(relocate(['a', '', 'b'], [''], { line: 2, endLine: 2 })).toEqual({ line: 2, endLine: 2 });
  });

  it('ignores trailing spaces in the file', () => {
    expect(relocate(['a', 'line 42   '], ['line 42'], { line: 9, endLine: 9 })).toEqual({ line: 2, endLine: 2 });
  });
});

describe('edits move a range', () => {
  const range = { line: 42, endLine: 44 }; // 0-based 41..43
  const edit = (startLine: number, startCharacter: number, endLine: number, endCharacter: number, text: string) => ({
    startLine,
    startCharacter,
    endLine,
    endCharacter,
    text,
  });

  it.each([
    ['three lines typed above', edit(10, 3, 10, 3, '\n\n\n'), { line: 45, endLine: 47 }],
    ['two lines deleted above', edit(10, 0, 12, 0, ''), { line: 40, endLine: 42 }],
    ['a line inserted right before the first line', edit(41, 0, 41, 0, 'new\n'), { line: 43, endLine: 45 }],
    ['an edit within one line above', edit(5, 2, 5, 4, 'xyz'), range],
    ['an edit below', edit(44, 0, 50, 0, '\n'), range],
  ])('%s', (_name, change, expected) => {
    expect(shiftForEdit(range, change)).toEqual(expected);
  });

  it.each([
    ['typing in the range', edit(42, 1, 42, 1, 'x')],
    ['text joined onto the first line', edit(40, 5, 41, 0, '')],
    ['a replacement reaching into the range', edit(39, 0, 42, 3, 'a\nb')],
    ['text without a newline put at the start of the first line', edit(41, 0, 41, 0, 'x')],
  ])('%s: found again by text instead', (_name, change) => {
    expect(shiftForEdit(range, change)).toBeUndefined();
  });
});

describe('long lines', () => {
  it('remembers the start of a minified line and still finds it where it moved', () => {
    const long = `const bundle = "${'x'.repeat(5000)}";`;
    const remembered = rememberLines(['a', long, 'b'], { line: 2, endLine: 2 })!;
    expect(remembered[0]).toHaveLength(REMEMBERED_LINE_CHARS);
    expect(relocate(['new', 'a', long, 'b'], remembered, { line: 2, endLine: 2 })).toEqual({ line: 3, endLine: 3 });
    expect(relocate(['a', 'b'], remembered, { line: 2, endLine: 2 })).toBeUndefined();
  });
});
