// "Redline: Open Earlier Review…": a quick pick of the window's earlier reviews, newest first.

import * as vscode from 'vscode';
import type { ReviewHistory } from '../review/reviewHistory';
import { formatSize } from '../../../shared/byteSize';

/** The revision the user picked, or undefined (none kept, or the pick was dismissed). */
export async function pickEarlierReview(history: Pick<ReviewHistory, 'list'>): Promise<number | undefined> {
  const entries = await history.list();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(
      'Redline: there are no earlier reviews in this window yet. A review goes to the history when another replaces it or it is cleared.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => ({
      label: entry.title || 'Untitled review',
      description: `revision ${entry.revision}`,
      detail: `${new Date(entry.updatedAt).toLocaleString()} · ${formatSize(entry.bytes)}`,
      revision: entry.revision,
    })),
    {
      title: 'Open an Earlier Review',
      placeHolder: 'Shown read-only in the review panel, with "Restore as current"',
      matchOnDescription: true,
    },
  );
  return picked?.revision;
}
