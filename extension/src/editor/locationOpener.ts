// Opens a `file:line` reference: the file beside the review panel, the line or range selected,
// revealed in the centre and highlighted briefly. Used by link clicks and by open-location. A file
// outside the workspace folders opens only after the user says yes, whatever cwd the request gave.

import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { formatReference, parseLinkTarget, type FileReference } from '../../../shared/links';
import { ErrorCode, IpcError, type OpenLocationResult } from '../../../shared/protocol';
import { resolveOne, type Resolution } from '../render/referenceResolver';
import { isInsideRoots } from './containment';
import type { EditorInFront } from './editorInFront';
import { keepsPreview } from './tabState';
import type { WithheldDocuments } from './withheldDocuments';

const HIGHLIGHT_MS = 1500;
/** The modal's yes; its no is the Cancel button every modal has. */
const OPEN = 'Open';

export class LocationOpener extends Disposable {
  private readonly highlight = this.register(
    vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
      isWholeLine: true,
    }),
  );
  private clearHighlight: NodeJS.Timeout | undefined;

  constructor(
    private readonly roots: (cwd: string | undefined) => string[],
    /** The column the review panel is in, so that files open beside it rather than over it. */
    private readonly panelColumn: () => vscode.ViewColumn | undefined,
    private readonly options: {
      /** Told of every file opened outside the roots, whose text get-selection then holds back. */
      readonly withheld?: WithheldDocuments;
      /** Keeps the opened editor in front of a late focus change: a closing modal's, the panel's. */
      readonly inFront?: EditorInFront;
    } = {},
  ) {
    super();
    this.register(toDisposable(() => clearTimeout(this.clearHighlight)));
  }

  /** Throws an IpcError whose message says what to fix when the reference is unusable. */
  async open(target: string, cwd: string | undefined): Promise<OpenLocationResult> {
    const reference = parseLinkTarget(target);
    if (!reference || reference.kind !== 'file') {
      throw new IpcError(
        ErrorCode.InvalidParams,
        `"${target}" is not a file reference. Use path:line, path:start-end, path#L10-L20 or an absolute path.`,
      );
    }
    const resolution = await this.resolveWithConsent(reference, this.roots(cwd));
    if (resolution.status !== 'resolved')
      throw new IpcError(ErrorCode.NotFound, `Cannot open ${formatReference(reference)}: ${resolution.reason}`);
    if (!(await isFile(resolution.absolutePath))) {
      throw new IpcError(ErrorCode.NotFound, `Cannot open ${formatReference(reference)}: it is a folder, not a file.`);
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(resolution.absolutePath));
    const { range, clampedFrom } = rangeIn(document, reference);
    const viewColumn = this.editorColumn();
    this.options.inFront?.showing();
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn,
      preview: keepsPreview(document.uri, viewColumn),
      selection: range,
    });
    // Active end at the start, so the cursor (and the status bar's "Ln") is on the first line.
    // Set here because showTextDocument's `selection` is a Range: a Selection's direction is lost.
    editor.selection = new vscode.Selection(range.end, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    this.flash(editor, range);
    this.options.inFront?.hold(editor);
    if (clampedFrom !== undefined) {
      void vscode.window.showInformationMessage(
        `Line ${clampedFrom} is past the end of ${vscode.workspace.asRelativePath(document.uri)} (${document.lineCount} lines); showing the last line.`,
      );
    }
    return {
      path: document.uri.fsPath,
      start: { line: range.start.line + 1, column: range.start.character + 1 },
      end: { line: range.end.line + 1, column: range.end.character + 1 },
      ...(clampedFrom !== undefined ? { clampedFrom } : {}),
    };
  }

  /**
   * The file alone (a line past the end is clamped later rather than refused). Inside the roots
   * it is found without asking; outside them, including through a link, only after the user's yes,
   * and it is then marked so that get-selection withholds its text.
   */
  private async resolveWithConsent(reference: FileReference, roots: string[]): Promise<Resolution> {
    const file: FileReference = { kind: 'file', path: reference.path };
    const inside = await resolveOne(roots, file, { outsideRoots: 'refuse' });
    const outside =
      inside.status === 'broken'
        ? inside.outside === true
        : inside.status === 'resolved' && !(await isInsideRoots(inside.absolutePath, roots));
    if (!outside) return inside;
    await this.askToOpenOutside(reference.path);
    const resolution =
      inside.status === 'resolved' ? inside : await resolveOne(roots, file, { outsideRoots: 'lookUp' });
    if (resolution.status === 'resolved')
      this.options.withheld?.openedForAssistant(vscode.Uri.file(resolution.absolutePath).toString());
    return resolution;
  }

  private async askToOpenOutside(shownPath: string): Promise<void> {
    const answer = await vscode.window.showWarningMessage(
      `Open ${shownPath}? It is outside this window's workspace folders.`,
      {
        modal: true,
        detail:
          'An assistant asked to open it, or a review links to it. Redline opens files outside the workspace only with your yes, ' +
          'and gives the assistant none of its text unless you select in it yourself.',
      },
      OPEN,
    );
    if (answer !== OPEN) {
      throw new IpcError(
        ErrorCode.Refused,
        `The user declined to open ${shownPath}: it is outside the workspace folders. ` +
          'Point them at a file inside the workspace, or ask them to open this one themselves.',
      );
    }
  }

  private editorColumn(): vscode.ViewColumn {
    return codeColumnBeside(this.panelColumn());
  }

  private flash(editor: vscode.TextEditor, range: vscode.Range): void {
    clearTimeout(this.clearHighlight);
    editor.setDecorations(this.highlight, [range]);
    this.clearHighlight = setTimeout(() => editor.setDecorations(this.highlight, []), HIGHLIGHT_MS);
  }
}

/** The range a reference names, clamped to the document; whole lines unless columns are given. */
function rangeIn(
  document: vscode.TextDocument,
  reference: FileReference,
): { range: vscode.Range; clampedFrom?: number } {
  const lastLine = document.lineCount - 1;
  const wanted = (reference.line ?? 1) - 1;
  const startLine = Math.min(wanted, lastLine);
  const endLine = Math.min(Math.max((reference.endLine ?? reference.line ?? 1) - 1, startLine), lastLine);
  const startCharacter = reference.column !== undefined ? reference.column - 1 : 0;
  const start = document.validatePosition(new vscode.Position(startLine, startCharacter));
  const end =
    reference.endColumn !== undefined
      ? document.validatePosition(new vscode.Position(endLine, reference.endColumn - 1))
      : reference.column !== undefined && reference.endLine === undefined
        ? start
        : document.lineAt(endLine).range.end;
  return { range: new vscode.Range(start, end), ...(wanted > lastLine ? { clampedFrom: wanted + 1 } : {}) };
}

async function isFile(absolutePath: string): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(vscode.Uri.file(absolutePath));
    return (stat.type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}

/** Where code opens from the panel: the first column, or the second when the panel is in the first, so the panel stays in view. */
export function codeColumnBeside(panel: vscode.ViewColumn | undefined): vscode.ViewColumn {
  return panel === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
}
