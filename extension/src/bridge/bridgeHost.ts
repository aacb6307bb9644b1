// Starts this window's IPC server and tells the window's terminals how to reach it. The window
// key and token are kept in workspace state, so the path and token that running assistants
// already hold stay valid after a reload; only the process behind the link changes.

import * as vscode from 'vscode';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, type EventName, type EventPayload } from '../../../shared/protocol';
import { REDLINE_VERSION } from '../../../shared/version';
import type { RequestHandlers } from '../ipc/ipcConnection';
import { IpcServer } from '../ipc/ipcServer';
import { publishStableLink, removeDeadHostSockets, socketLocation, withdrawStableLink, type SocketLocation } from '../ipc/socketLocation';
import { createToken } from '../ipc/token';

const IDENTITY_KEY = 'redline.windowIdentity';

interface WindowIdentity {
  readonly key: string;
  readonly token: string;
}

export class BridgeHost implements vscode.Disposable {
  private constructor(
    private readonly server: IpcServer,
    private readonly location: SocketLocation,
    readonly token: string,
  ) {}

  static async start(context: vscode.ExtensionContext, handlers: RequestHandlers, log: vscode.LogOutputChannel): Promise<BridgeHost> {
    const identity = await windowIdentity(context.workspaceState);
    const location = socketLocation(identity.key);
    if (location.directory) {
      const removed = removeDeadHostSockets(location.directory);
      if (removed.length > 0) log.info('Removed sockets of exited hosts', removed);
    }
    const server = await IpcServer.start({
      socketPath: location.ownPath,
      token: identity.token,
      handlers,
      serverInfo: { name: 'redline', version: REDLINE_VERSION, pid: process.pid },
      log: (event, fields) => log.info(event, fields ?? ''),
    });
    publishStableLink(location);
    const environment = context.environmentVariableCollection;
    environment.description = 'Lets AI assistants started in this terminal show reviews in this window (Redline).';
    environment.replace(IPC_PATH_ENV, location.stablePath);
    environment.replace(IPC_TOKEN_ENV, identity.token);
    return new BridgeHost(server, location, identity.token);
  }

  /** What terminals get in REDLINE_IPC_PATH. */
  get socketPath(): string {
    return this.location.stablePath;
  }

  get connectionCount(): number {
    return this.server.connectionCount;
  }

  broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.server.broadcast(event, payload);
  }

  dispose(): void {
    withdrawStableLink(this.location);
    void this.server.dispose();
  }
}

async function windowIdentity(state: vscode.Memento): Promise<WindowIdentity> {
  const saved = state.get<WindowIdentity>(IDENTITY_KEY);
  if (saved && /^[0-9a-f]{12}$/.test(saved.key) && /^[0-9a-f]{32}$/.test(saved.token)) return saved;
  const identity = { key: createToken().slice(0, 12), token: createToken() };
  await state.update(IDENTITY_KEY, identity);
  return identity;
}
