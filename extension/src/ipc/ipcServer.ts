// The extension's end of the bridge: a Unix socket (a named pipe on Windows) that MCP servers
// connect to. It owns the listener and the set of live connections; each connection does its
// own authentication and dispatch (ipcConnection.ts).

import * as fs from 'fs';
import * as net from 'net';
import { DEFAULT_MAX_LINE_BYTES } from '../../../shared/framing';
import type { EventName, EventPayload, HelloResult } from '../../../shared/protocol';
import { IpcConnection, type RequestHandlers } from './ipcConnection';

export interface IpcServerOptions {
  readonly socketPath: string;
  readonly token: string;
  readonly handlers: RequestHandlers;
  readonly serverInfo: HelloResult['server'];
  readonly maxLineBytes?: number;
  readonly log?: (event: string, fields?: Record<string, unknown>) => void;
}

export class IpcServer {
  private readonly connections = new Set<IpcConnection>();
  private nextConnectionId = 1;
  private disposed = false;

  private constructor(
    private readonly server: net.Server,
    private readonly options: IpcServerOptions,
  ) {}

  /** Listens on `socketPath`, replacing a stale socket file left by a dead process. */
  static async start(options: IpcServerOptions): Promise<IpcServer> {
    const log = options.log ?? (() => undefined);
    const server = net.createServer();
    const ipc = new IpcServer(server, { ...options, log });
    server.on('connection', (socket) => ipc.accept(socket));
    server.on('error', (error) => log('server-error', { error: error.message }));
    await listenReplacingStale(server, options.socketPath, log);
    if (process.platform !== 'win32') {
      fs.chmodSync(options.socketPath, 0o600);
    }
    log('listening', { socketPath: options.socketPath });
    return ipc;
  }

  get socketPath(): string {
    return this.options.socketPath;
  }

  /** Live connections, authenticated or not. */
  get connectionCount(): number {
    return this.connections.size;
  }

  broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const connection of this.connections) connection.sendEvent(event, payload);
  }

  /**
   * Closes the listener and every client. Node (libuv) unlinks the socket path when a pipe
   * server closes, so `socketPath` must be unique to this process (see socketLocation.ts).
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const connection of [...this.connections]) connection.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const connection = new IpcConnection(
      socket,
      {
        id: this.nextConnectionId++,
        token: this.options.token,
        handlers: this.options.handlers,
        maxLineBytes: this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
        serverInfo: this.options.serverInfo,
        log: this.options.log!,
      },
      (closed) => this.connections.delete(closed),
    );
    this.connections.add(connection);
  }
}

async function listenReplacingStale(
  server: net.Server,
  socketPath: string,
  log: NonNullable<IpcServerOptions['log']>,
): Promise<void> {
  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || process.platform === 'win32') throw error;
    if (await isSocketAlive(socketPath)) {
      throw new Error(`Another live Redline host already listens on ${socketPath}.`);
    }
    log('stale-socket-removed', { socketPath });
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
