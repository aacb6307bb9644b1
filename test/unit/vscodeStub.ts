// The slice of the `vscode` API that the location opener uses, for running the real LocationOpener
// under jest: it records what was opened and every question asked, and answers each question as
// the test says. Use with jest.mock('vscode', () => jest.requireActual('./vscodeStub').vscode, { virtual: true }).

import * as fs from 'fs';

class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor, active);
  }
}

interface StubUri {
  readonly fsPath: string;
  toString(): string;
}

const file = (fsPath: string): StubUri => ({ fsPath, toString: () => `file://${fsPath}` });

/** What the stub saw, and how the user answers the next modal question. */
export const seen = {
  opened: [] as string[],
  questions: [] as string[],
  /** The options of each showTextDocument. */
  shown: [] as unknown[],
  /** The button the user presses; undefined is Cancel. */
  answer: undefined as string | undefined,
  reset(): void {
    seen.opened = [];
    seen.questions = [];
    seen.shown = [];
    seen.answer = undefined;
    vscode.window.tabGroups.all = [];
  },
};

class TabInputText {
  constructor(readonly uri: StubUri) {}
}

function documentOf(uri: StubUri) {
  const lines = fs.readFileSync(uri.fsPath, 'utf8').split('\n');
  return {
    uri,
    lineCount: lines.length,
    validatePosition: (position: Position) => position,
    lineAt: (line: number) => ({
      range: new Range(new Position(line, 0), new Position(line, lines[line]?.length ?? 0)),
    }),
  };
}

export const vscode = {
  Position,
  Range,
  Selection,
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  ViewColumn: { One: 1, Two: 2 },
  TextEditorRevealType: { InCenter: 2 },
  FileType: { File: 1, Directory: 2 },
  Uri: { file },
  TabInputText,
  window: {
    activeTextEditor: undefined as unknown,
    /** The editor groups' tabs, as a test sets them. */
    tabGroups: {
      all: [] as Array<{ viewColumn: number; tabs: Array<{ input: unknown; isPreview: boolean }> }>,
    },
    createTextEditorDecorationType: () => ({ dispose: () => undefined }),
    showWarningMessage: async (message: string) => {
      seen.questions.push(message);
      return seen.answer;
    },
    showInformationMessage: async () => undefined,
    showTextDocument: async (document: ReturnType<typeof documentOf>, options?: unknown) => {
      seen.shown.push(options);
      const editor = {
        document,
        viewColumn: 1,
        selection: undefined as unknown,
        revealRange: () => undefined,
        setDecorations: () => undefined,
      };
      vscode.window.activeTextEditor = editor;
      return editor;
    },
  },
  workspace: {
    asRelativePath: (uri: StubUri) => uri.fsPath,
    openTextDocument: async (uri: StubUri) => {
      seen.opened.push(uri.fsPath);
      return documentOf(uri);
    },
    fs: {
      stat: async (uri: StubUri) => ({ type: fs.statSync(uri.fsPath).isDirectory() ? 2 : 1 }),
    },
  },
};
