// Tells every connected MCP server that the user's selection or active editor changed, so that
// subscribers to redline://selection read it again. A drag-select fires dozens of changes a
// second; the servers hear of them at most every SELECTION_EVENT_INTERVAL_MS, always after the last.

import * as vscode from 'vscode';
import { DisposableStore, toDisposable } from '../../../shared/lifecycle';
import { ProgressThrottle } from '../../../shared/progressThrottle';
import type { Broadcast } from './reviewEvents';

const SELECTION_EVENT_INTERVAL_MS = 250;

export function broadcastSelectionEvents(broadcast: Broadcast): DisposableStore {
  // The rate limit progress goes through: the first change at once, then the latest once per interval.
  const changed = new ProgressThrottle<void>(() => broadcast('selection-changed', {}), SELECTION_EVENT_INTERVAL_MS);
  const subscriptions = new DisposableStore();
  subscriptions.add(toDisposable(() => changed.close()));
  subscriptions.add(vscode.window.onDidChangeTextEditorSelection(() => changed.report()));
  subscriptions.add(vscode.window.onDidChangeActiveTextEditor(() => changed.report()));
  return subscriptions;
}
