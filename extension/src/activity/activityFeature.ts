// Seeing the connection: the status bar item with the bridge's state, the "Redline Activity" view
// of recent tool calls, a line per call in the "Redline" output, and their commands. The IPC server
// reports each request to `observer`; extension.ts tells this feature when the bridge is listening,
// or why it is not.

import * as vscode from 'vscode';
import { ACTIVITY_VIEW, ActivityCommands } from '../constants';
import type { RequestObserver } from '../ipc/ipcConnection';
import { ActivityLog, type ActivityEntry } from './activityLog';
import { ActivityTreeProvider, emptyMessage, pickCall } from './activityView';
import { shortId } from './activityText';
import { BridgeStatusItem, type ObservedBridge } from './bridgeStatusItem';
import { allOf, RequestLogLines } from './requestLogLines';

export type { ObservedBridge } from './bridgeStatusItem';

export class ActivityFeature implements vscode.Disposable {
  /** The recent calls, for the Activity view. */
  readonly log = new ActivityLog();
  private readonly status = new BridgeStatusItem(ActivityCommands.showActivity);
  private readonly view: vscode.TreeView<ActivityEntry>;
  private readonly disposables: vscode.Disposable[] = [];
  /** Something the window did on its own that the user should know of, above the calls until cleared. */
  private notice: string | undefined;

  /** The Activity view's log and a line per call in the output channel. */
  readonly observer: RequestObserver;

  constructor(output: vscode.LogOutputChannel) {
    const lines = new RequestLogLines((level, line) => (level === 'warn' ? output.warn(line) : output.info(line)));
    this.observer = allOf([this.log, lines], (error) => output.error('A request observer failed', error));
    const provider = new ActivityTreeProvider(this.log, () => this.showMessage());
    this.view = vscode.window.createTreeView(ACTIVITY_VIEW, { treeDataProvider: provider });
    this.showMessage();
    this.disposables.push(
      provider,
      this.view,
      this.status,
      vscode.commands.registerCommand(ActivityCommands.showActivity, () =>
        vscode.commands.executeCommand(`${ACTIVITY_VIEW}.focus`),
      ),
      vscode.commands.registerCommand(ActivityCommands.clearActivity, () => {
        this.notice = undefined;
        this.log.clear();
        this.showMessage();
      }),
      vscode.commands.registerCommand(ActivityCommands.copyCorrelationId, (item?: unknown) =>
        this.copyCorrelationId(item),
      ),
    );
  }

  /** The bridge listens: the status item shows its socket and follows its count of connected assistants. */
  bridgeStarted(bridge: ObservedBridge): void {
    this.status.listening(bridge);
  }

  /** Shows `text` at the top of the view until the next notice or Clear Activity. */
  showNotice(text: string): void {
    this.notice = text;
    this.showMessage();
  }

  private showMessage(): void {
    this.view.message = this.notice ?? emptyMessage(this.log);
  }

  /** The bridge could not start: the status item says so, with the reason. */
  bridgeFailed(error: unknown): void {
    this.status.failed((error as Error)?.message ?? String(error));
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.log.dispose();
  }

  /** On an item (inline or its context menu), that call; from the palette, the selected call or one the user picks. */
  private async copyCorrelationId(item: unknown): Promise<void> {
    const entry = isEntry(item)
      ? item
      : (this.view.selection[0] ?? (await pickCall(this.log, 'Copy the correlation id of which call?')));
    if (!entry) return;
    await vscode.env.clipboard.writeText(entry.id);
    vscode.window.setStatusBarMessage(
      `Redline: copied the correlation id ${shortId(entry.id)}… of ${entry.method}`,
      4000,
    );
  }
}

/** Creates the status item, the view and their commands; push the result into `context.subscriptions`. */
export function registerActivity(output: vscode.LogOutputChannel): ActivityFeature {
  return new ActivityFeature(output);
}

function isEntry(value: unknown): value is ActivityEntry {
  const entry = value as Partial<ActivityEntry> | undefined;
  return typeof entry?.id === 'string' && typeof entry.seq === 'number' && typeof entry.method === 'string';
}
