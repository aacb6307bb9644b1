// Starts this window's IPC server and tells the window's terminals how to reach it. The window
// key and token outlive the extension host, so the path and token that running assistants
// already hold stay valid after a reload; only the process behind the link changes.

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV, type EventName, type EventPayload } from '../../../shared/protocol';
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
    private readonly environment: vscode.GlobalEnvironmentVariableCollection,
    readonly token: string,
  ) {}

  /** `requestTimeoutMs` (0: the MCP server's defaults) reaches new terminals as REDLINE_TIMEOUT_MS. */
  static async start(
    context: vscode.ExtensionContext,
    handlers: RequestHandlers,
    log: vscode.LogOutputChannel,
    requestTimeoutMs = 0,
  ): Promise<BridgeHost> {
    const identity = await windowIdentity(context);
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
    const host = new BridgeHost(server, location, environment, identity.token);
    host.setRequestTimeout(requestTimeoutMs);
    return host;
  }

  /** Terminals opened from now on get the new REDLINE_TIMEOUT_MS, and the window waits as long; running assistants keep theirs. */
  setRequestTimeout(requestTimeoutMs: number): void {
    this.server.setRequestTimeout(requestTimeoutMs);
    if (requestTimeoutMs > 0) this.environment.replace(TIMEOUT_ENV, String(requestTimeoutMs));
    else this.environment.delete(TIMEOUT_ENV);
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

/**
 * The window's key and token. Kept in a 0600 file in the workspace's storage folder on the
 * extension host's disk, so that every host of this workspace (a reload, another code-server
 * tab) finds the same path and token even where workspace state lives in the browser; windows
 * without a storage folder (no folder open) fall back to workspace state.
 */
async function windowIdentity(context: vscode.ExtensionContext): Promise<WindowIdentity> {
  const file = context.storageUri?.scheme === 'file' ? path.join(context.storageUri.fsPath, 'window-identity.json') : undefined;
  const saved = file ? readIdentityFile(file) : context.workspaceState.get<WindowIdentity>(IDENTITY_KEY);
  if (saved && /^[0-9a-f]{12}$/.test(saved.key) && /^[0-9a-f]{32}$/.test(saved.token)) return saved;
  const identity: WindowIdentity = { key: createToken().slice(0, 12), token: createToken() };
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(identity), { mode: 0o600 });
  } else {
    await context.workspaceState.update(IDENTITY_KEY, identity);
  }
  return identity;
}

function readIdentityFile(file: string): WindowIdentity | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as WindowIdentity;
  } catch {
    return undefined;
  }
}
