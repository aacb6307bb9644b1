// The "Redline Activity" view: the window's recent tool calls, newest first, each with its
// assistant, status, duration, error and correlation id. Redraws at most every REFRESH_MS, so a
// burst of a thousand calls costs a few redraws, not two thousand.

import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { ActivityEntry, ActivityLog, ActivityStatus } from './activityLog';
import { describeCall } from './activityText';

const REFRESH_MS = 100;
/** The view's items' contextValue, which package.json's menus match. */
export const CALL_ITEM = 'redline-call';

const STATUS_ICONS: Record<ActivityStatus, vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('loading~spin'),
  ok: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  cancelled: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground')),
};

export class ActivityTreeProvider extends Disposable implements vscode.TreeDataProvider<ActivityEntry> {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.changed.event;
  private refresh: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: ActivityLog,
    /** Called with each redraw, e.g. to update the view's message. */
    private readonly onRefresh: () => void = () => undefined,
  ) {
    super();
    this.register(
      log.onDidChange(() => {
        this.refresh ??= setTimeout(() => {
          this.refresh = undefined;
          this.changed.fire();
          this.onRefresh();
        }, REFRESH_MS);
      }),
    );
    this.register(toDisposable(() => clearTimeout(this.refresh)));
  }

  getChildren(element?: ActivityEntry): ActivityEntry[] {
    return element ? [] : [...this.log.entries()];
  }

  getTreeItem(entry: ActivityEntry): vscode.TreeItem {
    const text = describeCall(entry);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    // Stable while the call goes from running to done, so that a selection stays on it.
    item.id = `call-${entry.seq}`;
    item.description = text.description;
    item.tooltip = text.tooltip;
    item.iconPath = STATUS_ICONS[entry.status];
    item.contextValue = CALL_ITEM;
    item.accessibilityInformation = { label: text.accessibleLabel };
    return item;
  }
}

/** The view's message when it has nothing to list; none otherwise. */
export function emptyMessage(log: ActivityLog): string | undefined {
  return log.size === 0
    ? 'No tool calls in this window yet. Each call an assistant makes to Redline appears here.'
    : undefined;
}

/** A recent call picked by the user, for commands run from the palette rather than on an item. */
export async function pickCall(log: ActivityLog, placeHolder: string): Promise<ActivityEntry | undefined> {
  const entries = log.entries();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage('Redline: no tool calls in this window yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => {
      const text = describeCall(entry);
      return { label: text.label, description: text.description, detail: entry.id, entry };
    }),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.entry;
}
