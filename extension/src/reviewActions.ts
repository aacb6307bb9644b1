// What the panel and the commands do on the user's behalf: copy, open a link, open a reference.
// Each reports its own outcome to the user, so callers only await.

import * as vscode from 'vscode';
import { parseLinkTarget } from '../../shared/links';
import type { LocationOpener } from './editor/locationOpener';

export async function copyReviewToClipboard(review: { readonly markdown: string } | undefined): Promise<boolean> {
  if (!review || review.markdown === '') {
    void vscode.window.showInformationMessage('Redline: there is no review to copy yet.');
    return false;
  }
  await vscode.env.clipboard.writeText(review.markdown);
  return true;
}

/** Only http(s), re-checked here: the webview is not trusted to have filtered it. */
export async function openExternalLink(url: string): Promise<void> {
  const target = parseLinkTarget(url);
  if (target?.kind !== 'external') {
    void vscode.window.showWarningMessage(
      `Redline refused to open "${url}": only http and https links open outside VS Code.`,
    );
    return;
  }
  await vscode.env.openExternal(vscode.Uri.parse(target.url, true));
}

export async function openReferenceForUser(
  opener: LocationOpener,
  target: string,
  cwd: string | undefined,
): Promise<void> {
  try {
    await opener.open(target, cwd);
  } catch (error) {
    void vscode.window.showErrorMessage(`Redline: ${(error as Error)?.message ?? error}`);
  }
}
