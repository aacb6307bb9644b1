// Keeps this window's discovery file (shared/discovery.ts) true: written when the bridge listens,
// again when the folders, the focus or the token change, and removed on dispose. MCP servers that
// were not started in one of this window's terminals find the window through it.

import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import {
  DISCOVERY_VERSION,
  removeDiscoveryFile,
  writeDiscoveryFile,
  type WindowRecord,
} from '../../../shared/discovery';

export interface PublishedEndpoint {
  readonly file: string;
  readonly socketPath: string;
  readonly token: string;
}

/** As many as a discovery file may list. */
const MAX_TERMINALS = 1024;

/** Disposing it removes the file. */
export class WindowPublisher extends Disposable {
  private record: WindowRecord;
  /** Orders the terminal lookups, which are asynchronous: only the latest one is written. */
  private terminalLookups = 0;

  constructor(
    private readonly endpoint: PublishedEndpoint,
    private readonly folders: () => readonly string[],
    private readonly log: Logger,
  ) {
    super();
    this.record = {
      version: DISCOVERY_VERSION,
      pid: process.pid,
      folders: folders(),
      socketPath: endpoint.socketPath,
      token: endpoint.token,
      editor: vscode.env.appName,
      // A window that opens unfocused (restored in the background) does not win a tie yet.
      lastFocused: vscode.window.state.focused ? Date.now() : 0,
      started: Date.now(),
      terminals: [],
    };
    this.write();
    this.register(toDisposable(() => this.remove()));
    void this.updateTerminals();
    this.register(vscode.window.onDidOpenTerminal(() => void this.updateTerminals()));
    this.register(vscode.window.onDidCloseTerminal(() => void this.updateTerminals()));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.update({ folders: this.folders() })));
    this.register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) this.update({ lastFocused: Date.now() });
      }),
    );
  }

  get file(): string {
    return this.endpoint.file;
  }

  setToken(token: string): void {
    this.update({ token });
  }

  private remove(): void {
    try {
      removeDiscoveryFile(this.endpoint.file);
    } catch (error) {
      this.log.warn('could not remove the discovery file', { file: this.endpoint.file, error });
    }
  }

  /** The shells of this window's terminals, once each has started (restored terminals included). */
  private async updateTerminals(): Promise<void> {
    const lookup = ++this.terminalLookups;
    const pids = await Promise.all(
      vscode.window.terminals.map((terminal) => Promise.resolve(terminal.processId).then(undefined, () => undefined)),
    );
    if (this.isDisposed || lookup !== this.terminalLookups) return;
    const terminals = [
      ...new Set(pids.filter((pid): pid is number => Number.isSafeInteger(pid) && (pid as number) > 0)),
    ].slice(0, MAX_TERMINALS);
    this.update({ terminals });
  }

  private update(change: Partial<WindowRecord>): void {
    if (this.isDisposed) return;
    this.record = { ...this.record, ...change };
    this.write();
  }

  /** A failed write leaves discovery without this window; its terminals still have REDLINE_IPC_PATH. */
  private write(): void {
    try {
      writeDiscoveryFile(this.endpoint.file, this.record);
    } catch (error) {
      this.log.error("could not write the discovery file; only this window's terminals can reach it", {
        file: this.endpoint.file,
        error,
      });
    }
  }
}
