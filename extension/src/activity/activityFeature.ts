// Seeing the connection: the status bar item with the bridge's state, the "Redline Activity" view
// of recent tool calls, a line per call in the "Redline" output (at debug level; a failed call is a
// warning), and their commands. The IPC server reports each request to `observer`; extension.ts
// tells this feature when the bridge is listening, or why it is not.

import * as vscode from 'vscode';
import { Disposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import { ACTIVITY_VIEW, ActivityCommands } from '../constants';
import type { RequestObserver } from '../ipc/requestContract';
import { ActivityLog, type ActivityEntry } from './activityLog';
import { ActivityTreeProvider, emptyMessage, pickCall } from './activityView';
import { shortId } from './activityText';
import { BridgeStatusItem, type ObservedBridge } from './bridgeStatusItem';
import { allOf, RequestLogLines } from './requestLogLines';

export type { ObservedBridge } from './bridgeStatusItem';

export class ActivityFeature extends Disposable {
  /** The recent calls, for the Activity view. */
  readonly log = this.register(new ActivityLog());
  private readonly status = this.register(new BridgeStatusItem(ActivityCommands.showActivity));
  private readonly view: vscode.TreeView<ActivityEntry>;
  /** Something the window did on its own that the user should know of, above the calls until cleared. */
  private notice: string | undefined;

  /** The Activity view's log and a line per call in the "Redline" output. */
  readonly observer: RequestObserver;

  constructor(logger: Logger) {
    super();
    this.observer = allOf([this.log, new RequestLogLines(logger)], logger);
    const provider = this.register(new ActivityTreeProvider(this.log, () => this.showMessage()));
    this.view = this.register(vscode.window.createTreeView(ACTIVITY_VIEW, { treeDataProvider: provider }));
    this.showMessage();
    this.register(
      vscode.commands.registerCommand(ActivityCommands.showActivity, () =>
        vscode.commands.executeCommand(`${ACTIVITY_VIEW}.focus`),
      ),
    );
    this.register(
      vscode.commands.registerCommand(ActivityCommands.clearActivity, () => {
        this.notice = undefined;
        this.log.clear();
        this.showMessage();
      }),
    );
    this.register(
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
export function registerActivity(logger: Logger): ActivityFeature {
  return new ActivityFeature(logger);
}

function isEntry(value: unknown): value is ActivityEntry {
  const entry = value as Partial<ActivityEntry> | undefined;
  return typeof entry?.id === 'string' && typeof entry.seq === 'number' && typeof entry.method === 'string';
}
