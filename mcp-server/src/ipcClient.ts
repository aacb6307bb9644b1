// The MCP server's end of the bridge. It connects on the first call (connector.ts), tracks each
// request by its UUID until its reply (pendingRequests.ts), and fails a connection's requests at
// once when it closes; the next call reconnects, so a window reload heals by itself.

import { randomUUID } from 'crypto';
import type * as net from 'net';
import { LineDecoder, encodeLine } from '../../shared/framing';
import { Disposable, toDisposable } from '../../shared/lifecycle';
import {
  ErrorCode,
  IpcError,
  MAX_FRAME_BYTES,
  ServerMessage,
  describeIssues,
  events,
  methods,
  type EventName,
  type Method,
  type ParamsOf,
  type ResultOf,
} from '../../shared/protocol';
import { writeInChunks } from './chunkedWrite';
import { Connector, shuttingDown, type ConnectorOptions } from './connector';
import { cancelled, tooLarge } from './ipcErrors';
import { PendingRequests, type BridgeProgress } from './pendingRequests';
import { timeoutFor, type Timeouts } from './toolTimeouts';

export interface IpcClientOptions extends ConnectorOptions {
  /** Overrides methods' own timeouts (REDLINE_TIMEOUT_MS, toolTimeouts.ts). */
  readonly timeouts?: Timeouts;
}

/** How one request is made: all optional. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** The calling assistant's name (MCP clientInfo, already cut to MAX_ASSISTANT_CHARS), for the window's Activity view. */
  readonly client?: string;
  /** Writes the request in pieces whose draining is reported, and asks the window for its progress too. */
  readonly onProgress?: (progress: BridgeProgress) => void;
}

type EventListener = (event: EventName, payload: unknown) => void;

/** Ends a listener's subscription. */
export interface Subscription {
  dispose(): void;
}

/** A rotation mid-request costs one resend; more in a row means the window keeps rotating. */
const MAX_RETIRED_RESENDS = 3;

export class IpcClient extends Disposable {
  private socket: net.Socket | undefined;
  private connecting: Promise<net.Socket> | undefined;
  private readonly pending: PendingRequests;
  private readonly eventListeners = new Set<EventListener>();
  private reached: { readonly via: string; readonly socketPath: string } | undefined;
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private readonly connector: Connector;

  constructor(private readonly options: IpcClientOptions) {
    super();
    this.pending = new PendingRequests(options.log);
    this.register(toDisposable(() => this.pending.failAll(shuttingDown())));
    this.register(toDisposable(() => void this.socket?.destroy()));
    this.connector = this.register(new Connector(options));
  }

  /**
   * Sends one request and waits for its reply, its timeout, or the connection's end. The request's
   * id is its correlation id: logged here when it starts and when it ends, and shown by the window
   * for the same call. Nothing is reported to `onProgress` once the request has settled.
   */
  async request<M extends Method>(method: M, params: ParamsOf<M>, options: RequestOptions = {}): Promise<ResultOf<M>> {
    // A connection the window retired (its token changed) refuses new requests unrun: they go
    // again on a new connection, which finds the new token, and the caller never hears of it.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(method, params, options);
      } catch (error) {
        if ((error as Partial<IpcError>)?.code !== ErrorCode.Retired || attempt >= MAX_RETIRED_RESENDS) throw error;
      }
    }
  }

  private async send<M extends Method>(
    method: M,
    params: ParamsOf<M>,
    { signal, client, onProgress }: RequestOptions,
  ): Promise<ResultOf<M>> {
    if (signal?.aborted) throw cancelled(method);
    const id = randomUUID();
    const started = performance.now();
    this.options.log.debug('request', { id, method, ...(client ? { client } : {}) });
    const settled = (outcome: Record<string, unknown>) =>
      this.options.log.debug('reply', { id, method, ...outcome, durationMs: Math.round(performance.now() - started) });
    try {
      // The window works on it for as long as this side waits.
      const timeoutMs = timeoutFor(this.options.timeouts ?? {}, method);
      const line = encodeLine({
        type: 'request',
        id,
        method,
        params,
        ...(client ? { client } : {}),
        timeoutMs,
        ...(onProgress ? { progress: true } : {}),
      });
      const size = Buffer.byteLength(line, 'utf8');
      if (size > MAX_FRAME_BYTES) throw tooLarge(method, size);
      const socket = await this.connect(method, signal);
      if (signal?.aborted) throw cancelled(method);
      const reply = this.pending.track({
        id,
        method,
        resultSchema: methods[method].result,
        timeoutMs,
        socket,
        onProgress,
      });
      const onAbort = () => this.pending.abandon(id, cancelled(method));
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (onProgress) {
          writeInChunks(socket, line, (sentBytes, totalBytes) =>
            this.pending.progress(id, socket, { stage: 'sending', sentBytes, totalBytes }),
          );
        } else {
          socket.write(line);
        }
        const result = (await reply) as ResultOf<M>;
        settled({ status: 'ok' });
        return result;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    } catch (error) {
      const code = (error as Partial<IpcError>)?.code;
      const message = String((error as Error)?.message ?? error).slice(0, 300);
      settled({
        status: code === ErrorCode.Cancelled ? 'cancelled' : 'error',
        ...(code !== undefined ? { code } : {}),
        error: message,
      });
      throw error;
    }
  }

  onEvent(listener: EventListener): Subscription {
    this.eventListeners.add(listener);
    return toDisposable(() => void this.eventListeners.delete(listener));
  }

  /** Told true when a connection opens and false when it closes: events arrive only in between. */
  onConnectionChange(listener: (connected: boolean) => void): Subscription {
    this.connectionListeners.add(listener);
    return toDisposable(() => void this.connectionListeners.delete(listener));
  }

  /** The window last reached, and how it was found; undefined before the first connection. */
  get reachedWindow(): string | undefined {
    return this.reached?.via;
  }

  /** The socket of the window last reached; undefined before the first connection. */
  get reachedSocketPath(): string | undefined {
    return this.reached?.socketPath;
  }

  /** Connects now rather than at the next request, for a caller that waits for events. */
  async connectNow(): Promise<void> {
    await this.connect('connect', undefined);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * The live socket, or the one being connected. The attempt is shared by every caller, so an
   * abort ends only the caller's wait, at once, and leaves the attempt to the others.
   */
  private connect(method: string, signal: AbortSignal | undefined): Promise<net.Socket> {
    if (this.connector.disposed) return Promise.reject(shuttingDown());
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    this.connecting ??= this.connectAndAttach().finally(() => (this.connecting = undefined));
    if (!signal) return this.connecting;
    const connecting = this.connecting;
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(cancelled(method));
      signal.addEventListener('abort', onAbort, { once: true });
      connecting.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private async connectAndAttach(): Promise<net.Socket> {
    const { socket, rest, socketPath, via } = await this.connector.connect();
    this.attach(socket, rest);
    this.socket = socket;
    this.reached = { via, socketPath };
    for (const listener of this.connectionListeners) listener(true);
    return socket;
  }

  private attach(socket: net.Socket, rest: Buffer): void {
    const decoder = new LineDecoder(
      {
        onLine: (line) => this.receive(line, socket),
        onOverflow: (size, max) => {
          // Said before the close, which would otherwise report a generic disconnect.
          this.pending.failAll(
            new IpcError(
              ErrorCode.LineTooLong,
              `VS Code sent a reply of over ${size} bytes, more than the ${max}-byte limit.`,
            ),
            socket,
          );
          socket.destroy();
        },
      },
      MAX_FRAME_BYTES,
    );
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
    socket.on('close', () => {
      this.forget(socket);
      this.pending.failAll(
        new IpcError(
          ErrorCode.Disconnected,
          'The connection to VS Code closed before it replied (was the window reloaded or closed?). ' +
            'Call the tool again: Redline reconnects by itself.',
        ),
        socket,
      );
    });
    if (rest.length > 0) decoder.push(rest);
    socket.resume();
  }

  /** The connection is over: the next request opens another. */
  private forget(socket: net.Socket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    for (const listener of this.connectionListeners) listener(false);
  }

  private receive(line: string, socket: net.Socket): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.options.log.warn('malformed-reply', { length: line.length });
      return;
    }
    const parsed = ServerMessage.safeParse(json);
    if (!parsed.success) {
      this.options.log.warn('invalid-reply', { problem: describeIssues(parsed.error) });
      return;
    }
    const message = parsed.data;
    if (message.type === 'event') {
      // The bridge's own business: new requests go on a new connection, replies still come here.
      if (message.event === 'connection-retiring') this.forget(socket);
      else this.emit(message.event, message.payload);
      return;
    }
    if (message.type === 'progress') {
      const { id, type: _type, ...update } = message;
      this.pending.progress(id, socket, { stage: 'window', ...update });
      return;
    }
    if (message.id === null) {
      if (!('error' in message)) return;
      // The server closes after an error it cannot tie to a request: say its reason, not a reload.
      this.options.log.warn('server-error', { ...message.error });
      this.pending.failAll(
        new IpcError(
          message.error.code as ErrorCode,
          `VS Code closed the connection: ${message.error.message} Call the tool again: Redline reconnects by itself.`,
        ),
        socket,
      );
      this.forget(socket);
      socket.destroy();
      return;
    }
    // Nothing more goes out on a retired connection; it still brings the replies to what it runs.
    if ('error' in message && message.error.code === ErrorCode.Retired) this.forget(socket);
    this.pending.settle(message.id, message);
  }

  private emit(event: string, payload: unknown): void {
    if (!Object.prototype.hasOwnProperty.call(events, event)) return;
    const name = event as EventName;
    const parsed = events[name].safeParse(payload);
    if (!parsed.success) return;
    for (const listener of this.eventListeners) listener(name, parsed.data);
  }
}
