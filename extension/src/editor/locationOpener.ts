// Opens a `file:line` reference: the file beside the review panel, the line or range selected,
// revealed in the centre and highlighted briefly. Used by link clicks and by open-location.

import * as vscode from 'vscode';
import { formatReference, parseLinkTarget, type FileReference } from '../../../shared/links';
import { ErrorCode, IpcError, type OpenLocationResult } from '../../../shared/protocol';
import { ReferenceResolver } from '../render/referenceResolver';

const HIGHLIGHT_MS = 1500;

export class LocationOpener implements vscode.Disposable {
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    isWholeLine: true,
  });
  private clearHighlight: NodeJS.Timeout | undefined;

  constructor(
    private readonly roots: (cwd: string | undefined) => string[],
    /** The column the review panel is in, so that files open beside it rather than over it. */
    private readonly panelColumn: () => vscode.ViewColumn | undefined,
  ) {}

  /** Throws an IpcError whose message says what to fix when the reference is unusable. */
  async open(target: string, cwd: string | undefined): Promise<OpenLocationResult> {
    const reference = parseLinkTarget(target);
    if (!reference || reference.kind !== 'file') {
      throw new IpcError(
        ErrorCode.InvalidParams,
        `"${target}" is not a file reference. Use path:line, path:start-end, path#L10-L20 or an absolute path.`,
      );
    }
    // Resolve the file alone: a line past the end is clamped below rather than refused.
    const resolution = new ReferenceResolver(this.roots(cwd)).resolve({ kind: 'file', path: reference.path });
    if (resolution.status === 'broken') throw new IpcError(ErrorCode.NotFound, `Cannot open ${formatReference(reference)}: ${resolution.reason}`);
    if (!(await isFile(resolution.absolutePath))) {
      throw new IpcError(ErrorCode.NotFound, `Cannot open ${formatReference(reference)}: it is a folder, not a file.`);
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(resolution.absolutePath));
    const { range, clampedFrom } = rangeIn(document, reference);
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: this.editorColumn(),
      preview: false,
      selection: range,
    });
    // Active end at the start, so the cursor (and the status bar's "Ln") is on the first line.
    // Set here because showTextDocument's `selection` is a Range: a Selection's direction is lost.
    editor.selection = new vscode.Selection(range.end, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
    this.flash(editor, range);
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

  dispose(): void {
    clearTimeout(this.clearHighlight);
    this.highlight.dispose();
  }

  private editorColumn(): vscode.ViewColumn {
    const panel = this.panelColumn();
    return panel === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  }

  private flash(editor: vscode.TextEditor, range: vscode.Range): void {
    clearTimeout(this.clearHighlight);
    editor.setDecorations(this.highlight, [range]);
    this.clearHighlight = setTimeout(() => editor.setDecorations(this.highlight, []), HIGHLIGHT_MS);
  }
}

/** The range a reference names, clamped to the document; whole lines unless columns are given. */
function rangeIn(document: vscode.TextDocument, reference: FileReference): { range: vscode.Range; clampedFrom?: number } {
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
