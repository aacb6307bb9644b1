// What the assistant may see of the disk through open-location and get-selection: containment on
// real paths, one text budget shared by all selections, and text withheld until the user selects.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isInsideRoots } from '../../extension/src/editor/containment';
import { capSelectionTexts } from '../../extension/src/editor/selectionText';
import { WithheldDocuments } from '../../extension/src/editor/withheldDocuments';
import { MAX_SELECTION_TEXT } from '../../shared/protocol';

const selected = (text: string) => ({ length: text.length, read: (units: number) => text.slice(0, units) });

describe('capSelectionTexts', () => {
  it('returns every selection whole while they fit', () => {
    expect(capSelectionTexts([selected('a'), selected('bc')], 3)).toEqual([{ text: 'a' }, { text: 'bc' }]);
  });

  it('shares one budget between the selections, in order, and marks what it cut', () => {
    expect(capSelectionTexts([selected('abcd'), selected('efgh'), selected('ij')], 6)).toEqual([
      { text: 'abcd' },
      { text: 'ef', truncated: true },
      { text: '', truncated: true },
    ]);
  });

  it('never ends on half of a surrogate pair', () => {
    const [cut] = capSelectionTexts([selected('ab😀cd')], 3);
    expect(cut).toEqual({ text: 'ab', truncated: true });
    expect(capSelectionTexts([selected('ab😀cd')], 4)[0]).toEqual({ text: 'ab😀', truncated: true });
  });

  it('reads no more of a huge selection than the budget', () => {
    let asked = 0;
    const huge = { length: 50 * 1024 * 1024, read: (units: number) => ((asked = units), 'x'.repeat(units)) };
    const [cut] = capSelectionTexts([huge]);
    expect(asked).toBe(MAX_SELECTION_TEXT);
    expect(cut.text.length).toBe(64 * 1024);
    expect(cut.truncated).toBe(true);
  });
});

describe('WithheldDocuments', () => {
  it('withholds a document opened for an assistant until the user selects in it or closes it', () => {
    const withheld = new WithheldDocuments();
    withheld.openedForAssistant('file:///a');
    withheld.openedForAssistant('file:///b');
    expect(withheld.isWithheld('file:///a')).toBe(true);
    withheld.userSelected('file:///a');
    expect(withheld.isWithheld('file:///a')).toBe(false);
    withheld.closed('file:///b');
    expect(withheld.isWithheld('file:///b')).toBe(false);
    expect(withheld.isWithheld('file:///never-opened')).toBe(false);
  });
});

describe('isInsideRoots', () => {
  let root: string;
  let workspace: string;
  let outside: string;
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-contain-')));
    workspace = path.join(root, 'ws');
    outside = path.join(root, 'secrets');
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(root, 'wsx'));
    fs.writeFileSync(path.join(workspace, 'src', 'a.ts'), '');
    fs.writeFileSync(path.join(outside, 'id_rsa'), '');
    fs.writeFileSync(path.join(root, 'wsx', 'b.ts'), '');
    fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(workspace, 'key-link'));
    fs.symlinkSync(outside, path.join(workspace, 'dir-link'));
    fs.symlinkSync(workspace, path.join(root, 'ws-link'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it.each([
    ['a file in the workspace', () => path.join(workspace, 'src', 'a.ts'), true],
    ['the workspace folder itself', () => workspace, true],
    ['a link in the workspace to a file outside it', () => path.join(workspace, 'key-link'), false],
    ['a file under a linked folder that points outside', () => path.join(workspace, 'dir-link', 'id_rsa'), false],
    ['a sibling folder that shares the name as a prefix', () => path.join(root, 'wsx', 'b.ts'), false],
    ['a file outside', () => path.join(outside, 'id_rsa'), false],
  ])('%s', async (_name, file, inside) => {
    expect(await isInsideRoots(file(), [workspace])).toBe(inside);
  });

  it('follows a root that is itself a link', async () => {
    expect(await isInsideRoots(path.join(workspace, 'src', 'a.ts'), [path.join(root, 'ws-link')])).toBe(true);
  });

  it.each([
    ['C:\\work\\app\\src\\a.ts', 'C:\\work\\app', true],
    ['c:\\WORK\\App\\src\\a.ts', 'C:\\work\\app', true],
    ['C:\\work\\apps\\a.ts', 'C:\\work\\app', false],
    ['D:\\work\\app\\a.ts', 'C:\\work\\app', false],
    ['C:\\work\\app\\..\\secrets\\a.ts', 'C:\\work\\app', false],
  ])('on Windows, %s in %s: %s', async (file, workspaceRoot, inside) => {
    expect(await isInsideRoots(file, [workspaceRoot], path.win32)).toBe(inside);
  });
});
