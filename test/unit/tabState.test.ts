// Showing a file leaves its tab as the user had it: one open as a preview in that column is shown
// with `preview: true`, which does not pin it; any other (pinned, elsewhere, not open) with
// `preview: false`, so that a tab Redline opens stays open.

jest.mock('vscode', () => jest.requireActual<typeof import('./vscodeStub')>('./vscodeStub').vscode, {
  virtual: true,
});

import { keepsPreview } from '../../extension/src/editor/tabState';
import { seen, vscode } from './vscodeStub';

const uri = vscode.Uri.file('/w/src/example.ts');
const tab = (path: string, isPreview: boolean) => ({
  input: new vscode.TabInputText(vscode.Uri.file(path)),
  isPreview,
});

beforeEach(() => seen.reset());

it('keeps a preview tab a preview, in its own column only', () => {
  vscode.window.tabGroups.all = [
    { viewColumn: 2, tabs: [tab('/w/src/util.ts', false), tab('/w/src/example.ts', true)] },
  ];
  expect(keepsPreview(uri as never, 2)).toBe(true);
  expect(keepsPreview(uri as never, 1)).toBe(false);
});

it('pins a file that is not open, or open in a pinned tab', () => {
  expect(keepsPreview(uri as never, 2)).toBe(false);
  vscode.window.tabGroups.all = [{ viewColumn: 2, tabs: [tab('/w/src/example.ts', false)] }];
  expect(keepsPreview(uri as never, 2)).toBe(false);
});
