// EditorInFront against a stand-in for VS Code's window and for the review panel's page (what
// webview/userMoves.ts tells): which moves of the focus to the panel bring back the editor Redline
// showed (those the user did not make, however late), and which are left to the user, also when
// the page gets the keyboard only after it answered.
// No clock: the tests that speak of seconds let them pass on jest's fake clock, to show that
// nothing in the rule depends on it.

type ActiveListener = (editor: unknown) => void;
const mockListeners = new Set<ActiveListener>();
type SelectionListener = (change: { textEditor: unknown; kind: number | undefined }) => void;
const mockSelectionListeners = new Set<SelectionListener>();
const mockShown: Array<{ document: unknown; options: unknown }> = [];
const mockVisible: unknown[] = [];
const mockWindow = {
  active: undefined as unknown,
  tabs: [] as Array<{ viewColumn: number; uri: string; preview: boolean }>,
};

jest.mock(
  'vscode',
  () => {
    class TabInputText {
      constructor(readonly uri: { toString(): string }) {}
    }
    return {
      TabInputText,
      TextEditorSelectionChangeKind: { Keyboard: 1, Mouse: 2, Command: 3 },
      window: {
        get activeTextEditor() {
          return mockWindow.active;
        },
        get visibleTextEditors() {
          return mockVisible;
        },
        tabGroups: {
          get all() {
            const columns = [...new Set(mockWindow.tabs.map((tab) => tab.viewColumn))];
            return columns.map((viewColumn) => ({
              viewColumn,
              tabs: mockWindow.tabs
                .filter((tab) => tab.viewColumn === viewColumn)
                .map((tab) => ({ input: new TabInputText({ toString: () => tab.uri }), isPreview: tab.preview })),
            }));
          },
        },
        onDidChangeActiveTextEditor: (listener: ActiveListener) => {
          mockListeners.add(listener);
          return { dispose: () => mockListeners.delete(listener) };
        },
        onDidChangeTextEditorSelection: (listener: SelectionListener) => {
          mockSelectionListeners.add(listener);
          return { dispose: () => mockSelectionListeners.delete(listener) };
        },
        showTextDocument: async (document: unknown, options: unknown) => {
          mockShown.push({ document, options });
        },
      },
    };
  },
  { virtual: true },
);

import type * as vscode from 'vscode';
import { EditorInFront } from '../../extension/src/editor/editorInFront';
import type { FocusCheckMessage } from '../../extension/src/panel/webviewMessages';
import { silentLogger } from '../../shared/logger';

/** An editor Redline showed, still visible in its column unless the test closes it. */
const editorOf = (fileName: string, viewColumn = 2) => {
  const editor = {
    document: { fileName, uri: { toString: () => `file://${fileName}` } },
    viewColumn,
  } as unknown as vscode.TextEditor;
  mockVisible.push(editor);
  mockWindow.active = editor;
  return editor;
};

/** The review panel and its page, which answers as webview/userMoves.ts does. */
class FakePanel {
  active = false;
  private movedSinceShown = true;
  /** The page has the keyboard. */
  keyboard = false;
  readonly questions: number[] = [];
  private readonly listeners = new Set<() => void>();

  readonly onDidBecomeActive = (listener: () => void) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  constructor(private readonly inFront: () => EditorInFront) {}

  post(message: FocusCheckMessage): void {
    if (message.type === 'editorShowing') this.movedSinceShown = false;
    else if (message.type === 'whoFocused') this.questions.push(message.question);
  }

  /** A pointer or a key went down in the page, or it gained the focus from the keyboard. */
  userMoves(): void {
    this.movedSinceShown = true;
    this.keyboard = true;
  }

  /** The panel becomes the active editor with the keyboard (VS Code's active text editor: none). */
  takesFront(): void {
    this.keyboard = true;
    this.comesToFront();
  }

  /** VS Code puts the panel's tab in front by its late poll of an old focus: the keyboard stays in the editor. */
  saidInFront(): void {
    this.keyboard = false;
    this.active = true;
    this.listeners.forEach((listener) => listener());
  }

  /** A click on the panel's tab: the panel becomes the active editor; its page gets the keyboard a moment later. */
  tabClicked(): void {
    this.keyboard = false;
    this.comesToFront();
  }

  private comesToFront(): void {
    this.active = true;
    activate(undefined);
    this.listeners.forEach((listener) => listener());
  }

  /** The page's answers reach the host. */
  answer(): void {
    for (const question of this.questions.splice(0))
      this.inFront().answered(question, this.movedSinceShown, this.keyboard);
  }
}

/** A key (or the mouse) moves the cursor in `editor`. */
const cursorMoved = (editor: vscode.TextEditor, kind: 1 | 2) =>
  mockSelectionListeners.forEach((listener) => listener({ textEditor: editor, kind }));

/** Redline shows `editor` for the user, as the location opener and Next Finding do. */
const shows = (inFront: EditorInFront, editor: vscode.TextEditor) => {
  inFront.showing();
  inFront.hold(editor);
};

const activate = (editor: vscode.TextEditor | undefined) => {
  mockWindow.active = editor;
  mockListeners.forEach((listener) => listener(editor));
};

describe('EditorInFront', () => {
  let inFront: EditorInFront;
  let panel: FakePanel;

  beforeEach(() => {
    jest.useFakeTimers();
    mockShown.length = 0;
    mockVisible.length = 0;
    mockWindow.tabs = [];
    inFront = new EditorInFront(silentLogger);
    panel = new FakePanel(() => inFront);
    inFront.attachPanel(panel);
  });
  afterEach(async () => {
    await inFront.dispose();
    jest.useRealTimers();
  });

  it('shows the editor again, in its own column, when the panel takes the front without a move of the user', () => {
    const code = editorOf('/w/src/example.ts', 2);
    shows(inFront, code);
    activate(code); // the show's own event keeps the hold
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([{ document: code.document, options: { viewColumn: 2, preview: false } }]);
  });

  it('shows the editor again when VS Code only says the panel is in front: at the first key in the editor', () => {
    const code = editorOf('/w/src/example.ts', 2);
    shows(inFront, code);
    jest.advanceTimersByTime(3_000);
    panel.saidInFront();
    panel.answer();
    // The page has no keyboard: a click on the tab looks the same until the keyboard comes.
    expect(mockShown).toEqual([]);
    cursorMoved(editorOf('/w/src/util.ts', 1), 1); // another editor's cursor: not the held one's
    cursorMoved(code, 2); // the mouse: VS Code brings that editor to the front itself
    expect(mockShown).toEqual([]);
    cursorMoved(code, 1);
    expect(mockShown).toEqual([{ document: code.document, options: { viewColumn: 2, preview: false } }]);
  });

  it("leaves the panel in front when its page gets the keyboard after it answered (a click on the panel's tab)", () => {
    const code = editorOf('/w/src/example.ts', 2);
    shows(inFront, code);
    panel.tabClicked();
    const question = panel.questions[panel.questions.length - 1];
    panel.answer();
    expect(mockShown).toEqual([]);
    inFront.answered(question, true, true); // the page's focus came
    cursorMoved(code, 1);
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it("leaves the panel in front after a click on its tab that lands before the show's answer", () => {
    const code = editorOf('/w/src/example.ts', 2);
    inFront.showing();
    panel.tabClicked();
    panel.userMoves(); // the page's keyboard, from the click
    inFront.hold(code); // the show's answer, after the click
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it('shows the editor again when the page kept the keyboard as the editor was shown', () => {
    const code = editorOf('/w/src/example.ts', 2);
    shows(inFront, code);
    inFront.keyboardKept();
    expect(mockShown.map((shown) => shown.document)).toEqual([code.document]);
    // Still held.
    panel.takesFront();
    panel.answer();
    expect(mockShown).toHaveLength(2);
  });

  it('undoes a late focus change 3 s after the editor was shown, and another after that', () => {
    const code = editorOf('/w/src/example.ts');
    shows(inFront, code);
    jest.advanceTimersByTime(3_000);
    panel.takesFront();
    panel.answer();
    expect(mockShown.map((shown) => shown.document)).toEqual([code.document]);
    activate(code); // given back
    jest.advanceTimersByTime(60_000);
    panel.takesFront();
    panel.answer();
    expect(mockShown.map((shown) => shown.document)).toEqual([code.document, code.document]);
  });

  it('leaves the panel in front after a move to it from the keyboard within 2 s, and after it', () => {
    const code = editorOf('/w/src/example.ts');
    shows(inFront, code);
    jest.advanceTimersByTime(500);
    // Ctrl+1, or a focus command: the page gains the focus, then VS Code makes it the active editor.
    panel.userMoves();
    panel.takesFront();
    panel.answer();
    activate(code);
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it('leaves the panel in front once the user clicked or typed in it', () => {
    shows(inFront, editorOf('/w/src/example.ts'));
    panel.userMoves();
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it('shows the editor again when the panel had taken the front before the hold began', () => {
    const code = editorOf('/w/src/example.ts');
    panel.active = true;
    panel.keyboard = true;
    mockWindow.active = undefined;
    shows(inFront, code);
    panel.answer();
    expect(mockShown.map((shown) => shown.document)).toEqual([code.document]);
  });

  it('leaves alone a switch to another text editor, and anything after it', () => {
    shows(inFront, editorOf('/w/src/example.ts'));
    activate(editorOf('/w/src/util.ts', 1));
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it('leaves alone another kind of editor the user brought to the front (Settings, a preview, an image)', () => {
    shows(inFront, editorOf('/w/src/example.ts'));
    activate(undefined); // not the panel: it stays inactive
    panel.answer();
    expect(mockShown).toEqual([]);
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it('keeps holding when the panel has left the front again by the time it answers', () => {
    const code = editorOf('/w/src/example.ts');
    shows(inFront, code);
    panel.saidInFront();
    panel.active = false;
    panel.answer();
    expect(mockShown).toEqual([]);
    panel.takesFront();
    panel.answer();
    expect(mockShown.map((shown) => shown.document)).toEqual([code.document]);
  });

  it('leaves alone an editor the user closed, or put another tab in front of', () => {
    shows(inFront, editorOf('/w/src/example.ts'));
    mockVisible.length = 0;
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([]);
  });

  it('gives the front back once: an answer to an old question, or to one already undone, does nothing', () => {
    const code = editorOf('/w/src/example.ts');
    shows(inFront, code);
    panel.takesFront();
    const [first] = panel.questions;
    panel.answer();
    inFront.answered(first, false, true);
    expect(mockShown).toHaveLength(1);
  });

  it('keeps a preview tab a preview when it shows the editor again', () => {
    const code = editorOf('/w/src/example.ts', 2);
    mockWindow.tabs = [{ viewColumn: 2, uri: 'file:///w/src/example.ts', preview: true }];
    shows(inFront, code);
    panel.takesFront();
    panel.answer();
    expect(mockShown).toEqual([{ document: code.document, options: { viewColumn: 2, preview: true } }]);
  });

  it('holds only the editor shown last', () => {
    const first = editorOf('/w/src/example.ts');
    const second = editorOf('/w/src/util.ts');
    shows(inFront, first);
    shows(inFront, second);
    activate(second);
    panel.takesFront();
    panel.answer();
    expect(mockShown.map((shown) => shown.document)).toEqual([second.document]);
  });

  it('without a panel, nothing can take the front from the editor: the hold ends at the first change', () => {
    const code = editorOf('/w/src/example.ts');
    const other = new EditorInFront(silentLogger);
    try {
      shows(other, code);
      activate(undefined);
      expect(mockShown).toEqual([]);
    } finally {
      void other.dispose();
    }
  });

  it('stops listening when disposed', async () => {
    await inFront.dispose();
    expect(mockListeners.size).toBe(0);
    expect(mockSelectionListeners.size).toBe(0);
  });
});
