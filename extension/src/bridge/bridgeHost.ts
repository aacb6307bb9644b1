// Starts this host's IPC server, publishes it for discovery, and tells the window's terminals how
// to reach it. Each extension host has a socket and a token of its own: after a reload, or in a
// second window on the same folder, an assistant finds its window again through discovery.

import * as path from 'path';
import * as vscode from 'vscode';
import { discoveryFileName } from '../../../shared/discovery';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV, type EventName, type EventPayload } from '../../../shared/protocol';
import { REDLINE_VERSION } from '../../../shared/version';
import { Disposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import type { Event } from '../emitter';
import type { RequestHandlers, RequestObserver } from '../ipc/requestContract';
import { IpcServer } from '../ipc/ipcServer';
import { removeDeadHostSockets, socketLocation, type SocketLocation } from '../ipc/socketLocation';
import { createToken } from '../ipc/token';
import { WindowPublisher } from './windowPublisher';

/** A fresh name is tried when one is taken by a live host (a named pipe an old host still holds). */
const LISTEN_ATTEMPTS = 3;

export interface BridgeHostOptions {
  readonly context: vscode.ExtensionContext;
  readonly handlers: RequestHandlers;
  /** The bridge's own; the IPC server logs as `ipc` beside it. */
  readonly log: Logger;
  readonly folders: () => readonly string[];
  /** Reaches new terminals as REDLINE_TIMEOUT_MS; 0 (the default) keeps the MCP server's defaults. */
  readonly requestTimeoutMs?: number;
  /** Hears of every request and how it ended (the Activity view). */
  readonly observer?: RequestObserver;
}

/** What a started host is made of, in the order it was made. */
interface BridgeParts {
  readonly server: IpcServer;
  readonly location: SocketLocation;
  readonly publisher: WindowPublisher;
  readonly environment: vscode.GlobalEnvironmentVariableCollection;
  readonly token: string;
}

/** Disposing it removes the discovery file, then closes the server and its connections. */
export class BridgeHost extends Disposable {
  private readonly server: IpcServer;
  private readonly location: SocketLocation;
  private readonly publisher: WindowPublisher;
  private readonly environment: vscode.GlobalEnvironmentVariableCollection;
  private currentToken: string;

  private constructor(parts: BridgeParts) {
    super();
    this.server = this.register(parts.server);
    this.publisher = this.register(parts.publisher);
    this.location = parts.location;
    this.environment = parts.environment;
    this.currentToken = parts.token;
  }

  static async start(options: BridgeHostOptions): Promise<BridgeHost> {
    const { context, handlers, log, folders, requestTimeoutMs = 0, observer } = options;
    const token = createToken();
    const { server, location } = await listen({ token, handlers, log, observer });
    const publisher = new WindowPublisher(
      {
        file: path.join(location.directory, discoveryFileName(process.pid, location.key)),
        socketPath: location.path,
        token,
      },
      folders,
      log,
    );
    const environment = context.environmentVariableCollection;
    // The token changes with every host: a stored copy would be stale, and it is a secret.
    environment.persistent = false;
    environment.description = 'Lets AI assistants started in this terminal show reviews in this window (Redline).';
    environment.replace(IPC_PATH_ENV, location.path);
    environment.replace(IPC_TOKEN_ENV, token);
    const host = new BridgeHost({ server, location, publisher, environment, token });
    host.setRequestTimeout(requestTimeoutMs);
    return host;
  }

  /** Terminals opened from now on get the new REDLINE_TIMEOUT_MS, and the window waits as long; running assistants keep theirs. */
  setRequestTimeout(requestTimeoutMs: number): void {
    this.server.setRequestTimeout(requestTimeoutMs);
    if (requestTimeoutMs > 0) this.environment.replace(TIMEOUT_ENV, String(requestTimeoutMs));
    else this.environment.delete(TIMEOUT_ENV);
  }

  /**
   * Replaces the token: connected MCP servers are cut off and, when they reconnect, read the new
   * one from the discovery file; new terminals get it too. Whoever copied the old one is locked out.
   */
  rotateToken(): void {
    this.currentToken = createToken();
    this.publisher.setToken(this.currentToken);
    this.environment.replace(IPC_TOKEN_ENV, this.currentToken);
    this.server.rotateToken(this.currentToken);
  }

  /** What terminals get in REDLINE_IPC_PATH. */
  get socketPath(): string {
    return this.location.path;
  }

  get token(): string {
    return this.currentToken;
  }

  /** This window's discovery file. */
  get discoveryFile(): string {
    return this.publisher.file;
  }

  get connectionCount(): number {
    return this.server.connectionCount;
  }

  /** MCP servers that have proven they hold the token. */
  get authenticatedCount(): number {
    return this.server.authenticatedCount;
  }

  get onDidChangeAuthenticatedCount(): Event<number> {
    return this.server.onDidChangeAuthenticatedCount;
  }

  broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.server.broadcast(event, payload);
  }
}

async function listen(
  options: Pick<BridgeHostOptions, 'handlers' | 'log' | 'observer'> & { readonly token: string },
): Promise<{ server: IpcServer; location: SocketLocation }> {
  const { token, handlers, log, observer } = options;
  for (let attempt = 1; ; attempt++) {
    const location = socketLocation(createToken().slice(0, 12));
    const removed = removeDeadHostSockets(location.directory);
    if (removed.length > 0) log.debug('removed the sockets of exited hosts', { sockets: removed });
    try {
      const server = await IpcServer.start({
        socketPath: location.path,
        token,
        handlers,
        serverInfo: { name: 'redline', version: REDLINE_VERSION, pid: process.pid },
        log: log.for('ipc'),
        observer,
      });
      return { server, location };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= LISTEN_ATTEMPTS) throw error;
      log.warn('socket name in use; trying another', { socketPath: location.path });
    }
  }
}
