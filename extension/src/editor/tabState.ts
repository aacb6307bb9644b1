// How a file's tab stands, so that Redline showing it leaves the tab as the user had it.

import * as vscode from 'vscode';

/**
 * `preview` for showTextDocument in `column`: true when `uri` is open there as a preview tab, so
 * that showing it again does not pin it; false otherwise, so that a tab Redline opens stays open.
 */
export function keepsPreview(uri: vscode.Uri, column: vscode.ViewColumn | undefined): boolean {
  const group = vscode.window.tabGroups.all.find((candidate) => candidate.viewColumn === column);
  const tab = group?.tabs.find(
    (candidate) => candidate.input instanceof vscode.TabInputText && candidate.input.uri.toString() === uri.toString(),
  );
  return tab?.isPreview ?? false;
}
