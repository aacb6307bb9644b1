// The status bar item that says whether assistants can reach this window: starting, listening
// with how many are connected (kept live), or failed with the reason. A click opens the Activity view.

import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { Event } from '../emitter';
import { describeBridgeState, type BridgeState } from './activityText';

/** What the status item reads from the running bridge (BridgeHost, or IpcServer itself). */
export interface ObservedBridge {
  /** The path assistants are given (REDLINE_IPC_PATH). */
  readonly socketPath: string;
  readonly authenticatedCount: number;
  readonly onDidChangeAuthenticatedCount: Event<number>;
}

export class BridgeStatusItem extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem('redline.bridge', vscode.StatusBarAlignment.Right, 100),
  );
  /** The bridge's count being followed, if any. */
  private subscription: ReturnType<ObservedBridge['onDidChangeAuthenticatedCount']> | undefined;

  constructor(command: string) {
    super();
    this.register(toDisposable(() => this.subscription?.dispose()));
    this.item.name = 'Redline Bridge';
    this.item.command = command;
    this.show({ kind: 'starting' });
    this.item.show();
  }

  /** Follows the bridge's count of connected assistants from now on. */
  listening(bridge: ObservedBridge): void {
    this.subscription?.dispose();
    const show = (connected: number) => this.show({ kind: 'listening', socketPath: bridge.socketPath, connected });
    this.subscription = bridge.onDidChangeAuthenticatedCount(show);
    show(bridge.authenticatedCount);
  }

  failed(reason: string): void {
    this.subscription?.dispose();
    this.subscription = undefined;
    this.show({ kind: 'failed', reason });
  }

  private show(state: BridgeState): void {
    const status = describeBridgeState(state);
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.accessibilityInformation = { label: status.accessibleLabel, role: 'button' };
    this.item.backgroundColor = status.isError ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }
}
