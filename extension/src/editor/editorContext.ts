// The editor's context for assistants beyond the selection: diagnostics, open editors and
// workspace folders, read from `vscode` and handed to the bridge as plain values.

import * as path from 'path';
import * as vscode from 'vscode';
import {
  MAX_OPEN_EDITORS,
  type GetDiagnosticsParams,
  type GetDiagnosticsResult,
  type GetWorkspaceFoldersResult,
  type ListOpenEditorsResult,
} from '../../../shared/protocol';
import { diagnosticsReport } from './diagnosticsReport';

/** The workspace's folders on disk: a virtual folder (vscode-vfs, a remote's scheme) has no files to read. */
export function fileFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

export function getDiagnostics(params: GetDiagnosticsParams): GetDiagnosticsResult {
  const files = vscode.languages
    .getDiagnostics()
    .filter(([uri]) => uri.scheme === 'file')
    .map(([uri, diagnostics]) => ({
      file: uri.fsPath,
      diagnostics: diagnostics.map((diagnostic) => ({
        start: diagnostic.range.start,
        end: diagnostic.range.end,
        severity: diagnostic.severity,
        message: diagnostic.message,
        source: diagnostic.source,
        code: typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code,
      })),
    }));
  return diagnosticsReport(params, { files, folders: fileFolders().map((folder) => folder.uri.fsPath) });
}

/**
 * Every tab that shows a file of the workspace, group by group: text editors, and a diff's
 * modified side. Files outside the workspace folders are only counted: their paths (a home
 * folder's layout, another project's name) are not the assistant's to know.
 */
export function listOpenEditors(): ListOpenEditorsResult {
  const documents = new Map(vscode.workspace.textDocuments.map((document) => [document.uri.toString(), document]));
  const activeGroup = vscode.window.tabGroups.activeTabGroup;
  const editors: ListOpenEditorsResult['editors'] = [];
  let outsideWorkspace = 0;
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const uri =
        tab.input instanceof vscode.TabInputText
          ? tab.input.uri
          : tab.input instanceof vscode.TabInputTextDiff
            ? tab.input.modified
            : undefined;
      if (!uri || uri.scheme !== 'file') continue;
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (!folder || folder.uri.scheme !== 'file') {
        outsideWorkspace++;
        continue;
      }
      editors.push({
        path: uri.fsPath,
        relativePath: path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/'),
        languageId: documents.get(uri.toString())?.languageId ?? null,
        isDirty: tab.isDirty,
        isActive: tab.isActive && group === activeGroup,
        isVisible: tab.isActive,
        group: group.viewColumn,
      });
    }
  }
  return {
    editors: editors.slice(0, MAX_OPEN_EDITORS),
    truncated: editors.length > MAX_OPEN_EDITORS,
    outsideWorkspace,
  };
}

export function getWorkspaceFolders(): GetWorkspaceFoldersResult {
  return { folders: fileFolders().map((folder) => ({ name: folder.name, path: folder.uri.fsPath })) };
}
