// get-diagnostics' answer from the editor's diagnostics: only files inside the workspace folders
// (an assistant learns nothing of files the user merely opened from elsewhere), filtered by file
// and severity, most severe first, and capped so that one call stays small. No `vscode` import:
// editorContext.ts passes plain values in.

import * as path from 'path';
import { isWithin, type PathFlavour } from '../../../shared/pathSafety';
import {
  MAX_DIAGNOSTICS,
  type DiagnosticInfo,
  type DiagnosticSeverity,
  type GetDiagnosticsParams,
  type GetDiagnosticsResult,
} from '../../../shared/protocol';

/** VS Code's DiagnosticSeverity order: Error = 0 … Hint = 3. */
const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'information', 'hint'];
const MAX_MESSAGE_CHARS = 2000;

export interface RawDiagnostic {
  /** 0-based, as VS Code has them. */
  readonly start: { line: number; character: number };
  readonly end: { line: number; character: number };
  readonly severity: number;
  readonly message: string;
  readonly source?: string;
  readonly code?: string | number;
}

export interface FileDiagnostics {
  readonly file: string;
  readonly diagnostics: readonly RawDiagnostic[];
}

export interface DiagnosticsSource {
  readonly files: readonly FileDiagnostics[];
  /** The workspace folders: diagnostics of files outside them are left out. */
  readonly folders: readonly string[];
  /** How paths are read; the running platform's by default. */
  readonly flavour?: PathFlavour;
}

export function diagnosticsReport(
  params: GetDiagnosticsParams,
  { files, folders, flavour = path }: DiagnosticsSource,
): GetDiagnosticsResult {
  const least = SEVERITIES.indexOf(params.severity ?? 'hint');
  const wanted = params.file === undefined ? undefined : resolveWanted(params.file, folders, flavour);
  const found: Array<DiagnosticInfo & { rank: number }> = [];
  for (const { file, diagnostics } of files) {
    const folder = folders.find((root) => isWithin(root, file, flavour));
    if (!folder || (wanted && !wanted.includes(flavour.resolve(file)))) continue;
    const relative = flavour.relative(folder, file).split(flavour.sep).join('/');
    for (const diagnostic of diagnostics) {
      if (diagnostic.severity > least) continue;
      found.push({
        rank: diagnostic.severity,
        path: relative,
        workspaceFolder: folder,
        start: { line: diagnostic.start.line + 1, column: diagnostic.start.character + 1 },
        end: { line: diagnostic.end.line + 1, column: diagnostic.end.character + 1 },
        severity: SEVERITIES[diagnostic.severity] ?? 'hint',
        message: diagnostic.message.slice(0, MAX_MESSAGE_CHARS),
        ...(diagnostic.source ? { source: diagnostic.source } : {}),
        ...(diagnostic.code !== undefined ? { code: diagnostic.code } : {}),
      });
    }
  }
  found.sort(
    (a, b) =>
      a.rank - b.rank || a.path.localeCompare(b.path) || a.start.line - b.start.line || a.start.column - b.start.column,
  );
  return {
    diagnostics: found.slice(0, MAX_DIAGNOSTICS).map(({ rank: _rank, ...diagnostic }) => diagnostic),
    total: found.length,
    truncated: found.length > MAX_DIAGNOSTICS,
  };
}

/** An absolute path as it is; a relative one against each folder (a multi-root workspace may have it in several). */
function resolveWanted(file: string, folders: readonly string[], flavour: PathFlavour): string[] {
  if (flavour.isAbsolute(file)) return [flavour.resolve(file)];
  return folders.map((folder) => flavour.resolve(folder, file));
}
