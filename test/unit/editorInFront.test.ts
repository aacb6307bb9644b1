// EditorInFront against a stand-in for VS Code's window: which switches of the active editor
// bring back the editor Redline showed, and which are left to the user.

type ActiveListener = (editor: unknown) => void;
const mockListeners = new Set<ActiveListener>();
const mockShown: Array<{ document: unknown; options: unknown }> = [];
const mockVisible: unknown[] = [];
const mockWindow = { active: undefined as unknown };

jest.mock(
  'vscode',
  () => ({
    window: {
      get activeTextEditor() {
        return mockWindow.active;
      },
      get visibleTextEditors() {
        return mockVisible;
      },
      onDidChangeActiveTextEditor: (listener: ActiveListener) => {
        mockListeners.add(listener);
        return { dispose: () => mockListeners.delete(listener) };
      },
      showTextDocument: async (document: unknown, options: unknown) => {
        mockShown.push({ document, options });
      },
    },
  }),
  { virtual: true },
);

import type * as vscode from 'vscode';
import { EditorInFront, HOLD_MS } from '../../extension/src/editor/editorInFront';
import { silentLogger } from '../../shared/logger';

/** An editor Redline showed, still visible in its column unless the test closes it. */
const editorOf = (fileName: string, viewColumn = 1) => {
  const editor = { document: { fileName }, viewColumn } as unknown as vscode.TextEditor;
  mockVisible.push(editor);
  mockWindow.active = editor;
  return editor;
};
const activate = (editor: vscode.TextEditor | undefined) => {
  mockWindow.active = editor;
  mockListeners.forEach((listener) => listener(editor));
};

describe('EditorInFront', () => {
  let clock: number;
  let inFront: EditorInFront;

  beforeEach(() => {
    clock = 1_000_000;
    mockShown.length = 0;
    mockVisible.length = 0;
    inFront = new EditorInFront(silentLogger, () => clock);
  });
  afterEach(() => inFront.dispose());

  it('shows the editor again, once, in its own column, when the panel takes the focus just after', () => {
    const code = editorOf('/w/src/example.ts', 2);
    inFront.hold(code);
    activate(code); // the show's own event keeps the hold
    clock += HOLD_MS - 1;
    activate(undefined); // the panel, a webview, became the active editor
    activate(undefined);
    expect(mockShown).toEqual([{ document: code.document, options: { viewColumn: 2, preview: false } }]);
  });

  it('shows the editor again when the panel had taken the focus before the hold began', () => {
    const code = editorOf('/w/src/example.ts');
    mockWindow.active = undefined;
    inFront.hold(code);
    expect(mockShown.map((shown) => shown.document)).toEqual([code.document]);
  });

  it('leaves the panel in front once the moment has passed', () => {
    inFront.hold(editorOf('/w/src/example.ts'));
    clock += HOLD_MS + 1;
    activate(undefined);
    expect(mockShown).toEqual([]);
  });

  it('leaves alone a switch to another text editor, and anything after it', () => {
    inFront.hold(editorOf('/w/src/example.ts'));
    activate(editorOf('/w/src/util.ts'));
    activate(undefined);
    expect(mockShown).toEqual([]);
  });

  it('leaves the panel in front after the user clicked in it', () => {
    inFront.hold(editorOf('/w/src/example.ts'));
    inFront.release();
    activate(undefined);
    expect(mockShown).toEqual([]);
  });

  it('leaves alone an editor the user closed, or put another tab in front of', () => {
    inFront.hold(editorOf('/w/src/example.ts'));
    mockVisible.length = 0;
    activate(undefined);
    expect(mockShown).toEqual([]);
  });

  it('holds only the editor shown last', () => {
    const first = editorOf('/w/src/example.ts');
    const second = editorOf('/w/src/util.ts');
    inFront.hold(first);
    inFront.hold(second);
    activate(second);
    activate(undefined);
    expect(mockShown.map((shown) => shown.document)).toEqual([second.document]);
  });

  it('stops listening when disposed', async () => {
    await inFront.dispose();
    expect(mockListeners.size).toBe(0);
  });
});
