// The review panel's webview: the options it is opened with, its title, and the static shell
// document (webviewHtml.ts) that the review is posted into.

import * as vscode from 'vscode';
import type { PanelReview } from './panelUpdates';
import { buildWebviewHtml, DEFAULT_TITLE } from './webviewHtml';

// Relative to the extension root (where package.json is). The stylesheet is served from where it
// is kept in the repo, because the build copies nothing into a top-level media/ folder.
const SCRIPT_DIR = ['dist'] as const;
const SCRIPT_FILE = 'webview.js';
const STYLE_DIR = ['extension', 'media'] as const;
const STYLE_FILE = 'review.css';

export const PANEL_VIEW_TYPE = 'redline.review';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableForms: false,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, ...SCRIPT_DIR),
      vscode.Uri.joinPath(extensionUri, ...STYLE_DIR),
    ],
  };
}

export function panelTitle(review: PanelReview | undefined, earlier = false): string {
  const title = review?.title ? `Review: ${review.title}` : DEFAULT_TITLE;
  return earlier ? `${title} (earlier)` : title;
}

/** A new panel beside the active editor, so that links open next to it. */
export function openPanelWebview(
  extensionUri: vscode.Uri,
  { review, preserveFocus }: { review: PanelReview | undefined; preserveFocus: boolean },
): vscode.WebviewPanel {
  const viewColumn = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  return vscode.window.createWebviewPanel(
    PANEL_VIEW_TYPE,
    panelTitle(review),
    { viewColumn, preserveFocus },
    {
      ...webviewOptions(extensionUri),
      // The page is cheap to rebuild from the host's state, so it is not kept alive while hidden.
      retainContextWhenHidden: false,
      enableFindWidget: true,
    },
  );
}

/** Gives the panel its shell document, titled for `review` until the first render arrives. */
export function loadShell(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, review: PanelReview | undefined): void {
  const webview = panel.webview;
  panel.title = panelTitle(review);
  webview.html = buildWebviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...SCRIPT_DIR, SCRIPT_FILE)).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...STYLE_DIR, STYLE_FILE)).toString(),
    title: review?.title,
  });
}
