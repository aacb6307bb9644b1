// How the IpcClient reaches a window: it tries each endpoint the locator offers, best first, and
// authenticates (clientHandshake.ts). A socket nobody listens on (a closed or reloaded window)
// moves on to the next endpoint, and a round with none alive is retried after a short pause,
// since a reloading window is back within a second or two. Any other failure ends the attempt.

import * as net from 'net';
import { Disposable, toDisposable } from '../../shared/lifecycle';
import type { Logger } from '../../shared/logger';
import { ErrorCode, IPC_PATH_ENV, IPC_TOKEN_ENV, IpcError } from '../../shared/protocol';
import { authenticate } from './clientHandshake';
import { describeConnectFailure, notConfigured } from './ipcErrors';
import { NoWindowError, type Endpoint } from './windowLocator';

export interface ConnectorOptions {
  /** Where to connect, best first, read afresh for every connection (windowLocator.ts). */
  readonly locate?: (dead: ReadonlySet<string>) => readonly Endpoint[];
  /** One fixed socket and token, when `locate` is not given. */
  readonly socketPath?: string;
  readonly token?: string;
  readonly clientInfo: { name: string; version: string };
  /** Delays between connection attempts; a reloading window is back within a second or two. */
  readonly retryDelaysMs?: readonly number[];
  readonly log: Logger;
}

/** An authenticated socket, paused, and the bytes that came after the handshake. */
export interface Connected {
  readonly socket: net.Socket;
  readonly rest: Buffer;
  readonly socketPath: string;
  /** Which window this is, and how it was found ("the VS Code window of this terminal"). */
  readonly via: string;
}

const HELLO_TIMEOUT_MS = 5_000;

export class Connector extends Disposable {
  /** Ends a back-off in progress when the client is disposed. */
  private readonly disposal = new AbortController();

  constructor(private readonly options: ConnectorOptions) {
    super();
    this.register(toDisposable(() => this.disposal.abort()));
  }

  get disposed(): boolean {
    return this.isDisposed;
  }

  async connect(): Promise<Connected> {
    const delays = this.options.retryDelaysMs ?? [100, 250, 500, 1000, 1500];
    for (let attempt = 0; ; attempt++) {
      const dead = new Set<string>();
      let failure: unknown;
      try {
        for (const endpoint of this.locate(dead)) {
          try {
            return await this.open(endpoint, attempt);
          } catch (error) {
            if (!isDeadSocket(error)) throw describeConnectFailure(error, endpoint.socketPath);
            dead.add(endpoint.socketPath);
            failure = describeConnectFailure(error, endpoint.socketPath);
          }
        }
      } catch (error) {
        if (!isNoWindow(error)) throw error;
        failure = error;
      }
      if (attempt >= delays.length) throw this.explainDead(dead) ?? failure;
      await sleep(delays[attempt], this.disposal.signal);
      if (this.disposed) throw shuttingDown();
    }
  }

  /** When every socket tried was dead, discovery's account of the open windows says more than "ENOENT". */
  private explainDead(dead: ReadonlySet<string>): unknown {
    if (dead.size === 0) return undefined;
    try {
      this.locate(dead);
      return undefined;
    } catch (error) {
      return isNoWindow(error) ? error : undefined;
    }
  }

  private locate(dead: ReadonlySet<string>): readonly Endpoint[] {
    if (this.options.locate) return this.options.locate(dead);
    const { socketPath, token } = this.options;
    if (!socketPath || !token) throw notConfigured(!socketPath ? IPC_PATH_ENV : IPC_TOKEN_ENV);
    return dead.has(socketPath) ? [] : [{ socketPath, token, via: `the window named by ${IPC_PATH_ENV}` }];
  }

  private async open({ socketPath, token, via }: Endpoint, attempt: number): Promise<Connected> {
    const socket = await openSocket(socketPath);
    // From here on an error is followed by 'close', which the handshake and the client handle.
    socket.on('error', (error) => this.options.log.debug('socket-error', { error }));
    const { rest } = await authenticate({
      socket,
      socketPath,
      token,
      clientInfo: this.options.clientInfo,
      timeoutMs: HELLO_TIMEOUT_MS,
    }).catch((error: unknown) => {
      socket.destroy();
      throw error;
    });
    this.options.log.debug('connected', { socketPath, via, attempt });
    return { socket, rest, socketPath, via };
  }
}

export function shuttingDown(): IpcError {
  return new IpcError(ErrorCode.Disconnected, 'The Redline MCP server is shutting down.');
}

function openSocket(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function isNoWindow(error: unknown): boolean {
  return error instanceof NoWindowError;
}

/** Nobody listens there (any more), or not yet: worth another endpoint, or another try. */
function isDeadSocket(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EAGAIN';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
