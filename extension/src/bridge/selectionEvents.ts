// Tells every connected MCP server that the user's selection or active editor changed, so that
// subscribers to redline://selection read it again. A drag-select fires dozens of changes a
// second; the servers hear of them at most every SELECTION_EVENT_INTERVAL_MS, always after the last.

import * as vscode from 'vscode';
import { ProgressThrottle } from '../../../shared/progressThrottle';
import type { Broadcast } from './reviewEvents';

const SELECTION_EVENT_INTERVAL_MS = 250;

export function broadcastSelectionEvents(broadcast: Broadcast): vscode.Disposable {
  // The rate limit progress goes through: the first change at once, then the latest once per interval.
  const changed = new ProgressThrottle<void>(() => broadcast('selection-changed', {}), SELECTION_EVENT_INTERVAL_MS);
  const subscriptions = [
    vscode.window.onDidChangeTextEditorSelection(() => changed.report()),
    vscode.window.onDidChangeActiveTextEditor(() => changed.report()),
  ];
  return new vscode.Disposable(() => {
    changed.close();
    for (const subscription of subscriptions) subscription.dispose();
  });
}
