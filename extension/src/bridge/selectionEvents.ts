// Tells every connected MCP server that the user's selection or active editor changed, so that
// subscribers to redline://selection read it again. A drag-select fires dozens of changes a
// second; the servers hear of them at most every SELECTION_EVENT_INTERVAL_MS, always after the last.

import * as vscode from 'vscode';
import { throttle } from '../events';
import type { Broadcast } from './reviewEvents';

const SELECTION_EVENT_INTERVAL_MS = 250;

export function broadcastSelectionEvents(broadcast: Broadcast): vscode.Disposable {
  const changed = throttle(() => broadcast('selection-changed', {}), SELECTION_EVENT_INTERVAL_MS);
  const subscriptions = [
    vscode.window.onDidChangeTextEditorSelection(() => changed.schedule()),
    vscode.window.onDidChangeActiveTextEditor(() => changed.schedule()),
  ];
  return new vscode.Disposable(() => {
    changed.cancel();
    for (const subscription of subscriptions) subscription.dispose();
  });
}
