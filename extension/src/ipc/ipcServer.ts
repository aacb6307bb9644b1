// The extension's end of the bridge: a Unix socket (a named pipe on Windows) that MCP servers
// connect to. It owns the listener and the set of live connections; each connection does its
// own authentication and dispatch (ipcConnection.ts). It also caps how many connections may wait
// unauthenticated at once, so that a local peer cannot hold the window's memory before the token,
// and, across authenticated ones, how many there are and how many unsent bytes they hold (windowCaps.ts).

import * as fs from 'fs';
import * as net from 'net';
import { MAX_FRAME_BYTES, type EventName, type EventPayload, type HelloResult } from '../../../shared/protocol';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { silentLogger, type Logger } from '../../../shared/logger';
import { Emitter, type Event } from '../emitter';
import { OffThreadLineParser } from './lineParser';
import type { ConnectionLimits } from './connectionOptions';
import { IpcConnection } from './ipcConnection';
import type { RequestHandlers, RequestObserver } from './requestContract';
import { RefusalLog } from './refusalLog';
import { pastAuthenticatedCap, pastUnsentCap, type WindowCaps } from './windowCaps';

export interface IpcLimits extends ConnectionLimits, WindowCaps {
  /** Connections held open before their auth is accepted; further ones are closed at once. */
  readonly maxUnauthenticated: number;
  /** At most one log line per kind of refusal in this long. */
  readonly refusalLogIntervalMs: number;
}

export const DEFAULT_LIMITS: IpcLimits = {
  preAuthMaxBytes: 64 * 1024,
  authTimeoutMs: 5_000,
  maxUnauthenticated: 32,
  maxInFlight: 64,
  // What one 64 KiB read can hold of the smallest requests, before reading stops.
  maxQueued: 1024,
  writePauseBytes: 4 * 1024 * 1024,
  // Above the largest single reply (a 10 MiB review, escaped), so a slow but honest reader survives.
  writeDropBytes: 4 * 1024 * 1024 + 2 * MAX_FRAME_BYTES,
  // Far more than the assistants of one window: each is one MCP server, one connection.
  maxAuthenticated: 64,
  // One peer's drop threshold and a little more: a slow honest reader of the largest reply still
  // fits, and eight that never read cannot hold eight times as much.
  maxTotalUnsentBytes: 4 * 1024 * 1024 + 2 * MAX_FRAME_BYTES + 32 * 1024 * 1024,
  refusalLogIntervalMs: 10_000,
};

export interface IpcServerOptions {
  readonly socketPath: string;
  readonly token: string;
  readonly handlers: RequestHandlers;
  readonly serverInfo: HelloResult['server'];
  /** The largest line accepted after the handshake; MAX_FRAME_BYTES unless a test lowers it. */
  readonly maxLineBytes?: number;
  readonly limits?: Partial<IpcLimits>;
  /** Routine events at debug, refusals at warn; nothing when left out. */
  readonly log?: Logger;
  /** Told of every request on every connection (the window's Activity view). */
  readonly observer?: RequestObserver;
}

/**
 * Disposing it closes the listener and every client. Node (libuv) unlinks the socket path when a
 * pipe server closes, so `socketPath` must be unique to this process (see socketLocation.ts).
 */
export class IpcServer extends Disposable {
  private readonly connections = new Set<IpcConnection>();
  private nextConnectionId = 1;
  private readonly authenticatedChanged: Emitter<number>;
  /** Fires the number of authenticated connections each time one authenticates or closes. */
  readonly onDidChangeAuthenticatedCount: Event<number>;
  /** Changed by rotateToken(); options.token is only the first. */
  private token: string;
  private limits: IpcLimits;
  private readonly log: Logger;
  private readonly refusals: RefusalLog;
  /** One for the window: its connections' large lines are parsed off this thread, one after another. */
  private readonly lineParser: OffThreadLineParser;

  private constructor(
    server: net.Server,
    private readonly options: IpcServerOptions,
  ) {
    super();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.token = options.token;
    this.log = options.log ?? silentLogger;
    this.refusals = new RefusalLog(this.log, this.limits.refusalLogIntervalMs);
    // Released newest first: the clients, then the parser and the event, then the listener.
    this.register(toDisposable(() => new Promise<void>((resolve) => server.close(() => resolve()))));
    this.authenticatedChanged = this.register(new Emitter<number>());
    this.onDidChangeAuthenticatedCount = this.authenticatedChanged.event;
    this.lineParser = this.register(new OffThreadLineParser());
    this.register(
      toDisposable(() => {
        for (const connection of [...this.connections]) connection.close();
      }),
    );
  }

  /** Listens on `socketPath`, replacing a stale socket file left by a dead process. */
  static async start(options: IpcServerOptions): Promise<IpcServer> {
    const server = net.createServer();
    const ipc = new IpcServer(server, options);
    server.on('connection', (socket) => ipc.accept(socket));
    server.on('error', (error) => ipc.log.warn('server-error', { error }));
    try {
      await listenReplacingStale(server, options.socketPath, ipc.log);
    } catch (error) {
      await ipc.dispose();
      throw error;
    }
    if (process.platform !== 'win32') {
      fs.chmodSync(options.socketPath, 0o600);
    }
    ipc.log.debug('listening', { socketPath: options.socketPath });
    return ipc;
  }

  get socketPath(): string {
    return this.options.socketPath;
  }

  /** Live connections, authenticated or not. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Live connections that proved they hold the token: the MCP servers connected to this window. */
  get authenticatedCount(): number {
    let count = 0;
    for (const connection of this.connections) if (connection.isAuthenticated) count++;
    return count;
  }

  broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const connection of this.connections) connection.sendEvent(event, payload);
  }

  /**
   * New connections must prove `token`; every open one is retired (it answers what is running,
   * then closes), so that a client that only had the old token is cut off. Honest clients
   * reconnect and read the new token (discovery).
   */
  rotateToken(token: string): void {
    this.token = token;
    for (const connection of [...this.connections]) connection.retire();
  }

  /**
   * The deadline for requests on connections made from now on; 0 keeps each method's own. It
   * matches REDLINE_TIMEOUT_MS, which new terminals get at the same time, so that the window
   * works on a request for as long as its assistant waits.
   */
  setRequestTimeout(requestTimeoutMs: number): void {
    this.limits = { ...this.limits, requestTimeoutMs: requestTimeoutMs > 0 ? requestTimeoutMs : undefined };
  }

  /** Connections that are open and have not authenticated yet. */
  get unauthenticatedCount(): number {
    let count = 0;
    for (const connection of this.connections) if (connection.isAwaitingAuth) count++;
    return count;
  }

  private accept(socket: net.Socket): void {
    if (this.isDisposed || this.unauthenticatedCount >= this.limits.maxUnauthenticated) {
      this.refusals.refused('too-many', { limit: this.limits.maxUnauthenticated });
      socket.destroy();
      return;
    }
    const connection = new IpcConnection(
      socket,
      {
        id: this.nextConnectionId++,
        token: this.token,
        handlers: this.options.handlers,
        maxLineBytes: this.options.maxLineBytes ?? MAX_FRAME_BYTES,
        serverInfo: this.options.serverInfo,
        limits: this.limits,
        log: this.log,
        refusals: this.refusals,
        observer: this.options.observer,
        lineParser: this.lineParser,
      },
      {
        authenticated: (opened) => {
          const closing = pastAuthenticatedCap(this.connections, opened, this.limits.maxAuthenticated);
          if (closing) {
            this.refusals.refused('too-many-authenticated', {
              limit: this.limits.maxAuthenticated,
              closed: closing.id,
            });
            closing.close();
          }
          this.authenticatedChanged.fire(this.authenticatedCount);
        },
        closed: (closed) => {
          if (this.connections.delete(closed) && closed.isAuthenticated)
            this.authenticatedChanged.fire(this.authenticatedCount);
        },
        wrote: () => {
          for (const closing of pastUnsentCap(this.connections, this.limits.maxTotalUnsentBytes)) {
            this.refusals.refused('window-backpressure', {
              connection: closing.id,
              unsent: closing.unsentBytes,
              limit: this.limits.maxTotalUnsentBytes,
            });
            closing.close();
          }
        },
      },
    );
    this.connections.add(connection);
  }
}

async function listenReplacingStale(server: net.Server, socketPath: string, log: Logger): Promise<void> {
  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || process.platform === 'win32') throw error;
    if (await isSocketAlive(socketPath)) {
      throw Object.assign(new Error(`Another live Redline host already listens on ${socketPath}.`), {
        code: 'EADDRINUSE',
      });
    }
    log.debug('stale-socket-removed', { socketPath });
    fs.unlinkSync(socketPath);
    await listen(server, socketPath);
  }
}

function listen(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    // Created under umask 077 so that the socket is never reachable by others, even briefly.
    const previousUmask = process.platform === 'win32' ? undefined : process.umask(0o077);
    server.listen(socketPath, () => {
      server.off('error', onError);
      resolve();
    });
    if (previousUmask !== undefined) process.umask(previousUmask);
  });
}

function isSocketAlive(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
