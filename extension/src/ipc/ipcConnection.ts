// One client of the IPC server: authenticates it, validates each line it sends, runs its
// requests one after another in arrival order, and answers each by id.

import type { Socket } from 'net';
import { LineDecoder, encodeLine } from '../../../shared/framing';
import {
  ClientMessage,
  ErrorCode,
  HelloResult,
  IpcError,
  PROTOCOL_VERSION,
  RequestMessage,
  describeIssues,
  isMethod,
  methods,
  type EventName,
  type EventPayload,
  type Method,
  type ResultOf,
  type ValidParamsOf,
} from '../../../shared/protocol';
import { tokensMatch } from './token';

export interface RequestContext {
  /** Aborted when the client cancels the request or disconnects. */
  readonly signal: AbortSignal;
  readonly connectionId: number;
}

export type RequestHandlers = {
  [M in Method]: (params: ValidParamsOf<M>, context: RequestContext) => Promise<ResultOf<M>> | ResultOf<M>;
};

export interface ConnectionOptions {
  readonly id: number;
  readonly token: string;
  readonly handlers: RequestHandlers;
  readonly maxLineBytes: number;
  readonly serverInfo: HelloResult['server'];
  readonly log: (event: string, fields?: Record<string, unknown>) => void;
}

export class IpcConnection {
  private authenticated = false;
  /** No more input is accepted (set on a fatal error, before the socket finishes closing). */
  private closed = false;
  /** This connection's state has been freed and the server told. */
  private released = false;
  /** Requests run strictly in arrival order; each link waits for the one before it. */
  private queue: Promise<void> = Promise.resolve();
  private readonly running = new Map<string, AbortController>();
  private readonly cancelledBeforeStart = new Set<string>();
  private readonly decoder: LineDecoder;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
    private readonly onClosed: (connection: IpcConnection) => void,
  ) {
    this.decoder = new LineDecoder(
      {
        onLine: (line) => this.receive(line),
        onOverflow: (size, max) => {
          this.options.log('line-too-long', { connection: options.id, size, max });
          this.fail(null, ErrorCode.LineTooLong, `Message larger than ${max} bytes; closing this connection.`);
        },
      },
      options.maxLineBytes,
    );
    socket.on('data', (chunk: Buffer) => this.decoder.push(chunk));
    socket.on('error', (error) => this.options.log('socket-error', { connection: options.id, error: error.message }));
    socket.on('close', () => this.handleClose());
  }

  get id(): number {
    return this.options.id;
  }

  get isAuthenticated(): boolean {
    return this.authenticated;
  }

  sendEvent<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (this.authenticated) this.write({ type: 'event', event, payload });
  }

  close(): void {
    if (!this.socket.destroyed) this.socket.destroy();
    this.handleClose();
  }

  private receive(line: string): void {
    if (this.closed) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.reject(null, ErrorCode.ParseError, 'Not valid JSON. Send one JSON message per line.');
      return;
    }
    const parsed = ClientMessage.safeParse(json);
    if (!parsed.success) {
      this.reject(idOf(json), ErrorCode.InvalidMessage, `Invalid message: ${describeIssues(parsed.error)}`);
      return;
    }
    const message = parsed.data;
    if (!this.authenticated) {
      if (message.type === 'hello' && tokensMatch(message.token, this.options.token)) {
        this.authenticated = true;
        const result: HelloResult = { protocolVersion: PROTOCOL_VERSION, server: this.options.serverInfo };
        this.write({ type: 'response', id: message.id, result });
        this.options.log('client-authenticated', { connection: this.id, client: message.client });
      } else {
        this.options.log('client-refused', { connection: this.id, reason: message.type === 'hello' ? 'token' : 'no hello' });
        this.fail(message.id, ErrorCode.Unauthorized, 'Unauthorized: the first message must be a hello with this window\'s token.');
      }
      return;
    }
    switch (message.type) {
      case 'hello':
        this.reject(message.id, ErrorCode.InvalidMessage, 'Already authenticated on this connection.');
        return;
      case 'cancel':
        this.cancel(message.id);
        return;
      case 'request':
        this.queue = this.queue.then(() => this.run(message));
        return;
    }
  }

  private cancel(id: string): void {
    const controller = this.running.get(id);
    if (controller) controller.abort();
    else this.cancelledBeforeStart.add(id);
  }

  private async run(request: RequestMessage): Promise<void> {
    if (this.closed) return;
    if (this.cancelledBeforeStart.delete(request.id)) {
      this.reject(request.id, ErrorCode.Cancelled, 'Cancelled by the client.');
      return;
    }
    const method = request.method;
    if (!isMethod(method)) {
      this.reject(request.id, ErrorCode.MethodNotFound, `Unknown method "${method}".`);
      return;
    }
    const params = methods[method].params.safeParse(request.params ?? {});
    if (!params.success) {
      this.reject(request.id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${describeIssues(params.error)}`);
      return;
    }
    const controller = new AbortController();
    this.running.set(request.id, controller);
    try {
      const handler = this.options.handlers[method] as (p: unknown, c: RequestContext) => unknown;
      const result = await handler(params.data, { signal: controller.signal, connectionId: this.id });
      this.write({ type: 'response', id: request.id, result });
    } catch (error) {
      if (error instanceof IpcError) this.reject(request.id, error.code, error.message);
      else {
        this.options.log('handler-failed', { connection: this.id, method, error: String(error) });
        this.reject(request.id, ErrorCode.Internal, `Redline failed to handle ${method}: ${(error as Error)?.message ?? error}`);
      }
    } finally {
      this.running.delete(request.id);
    }
  }

  private reject(id: string | null, code: ErrorCode, message: string): void {
    this.write({ type: 'response', id, error: { code, message } });
  }

  /** Reply with an error, then close: for failures after which the stream cannot be trusted. */
  private fail(id: string | null, code: ErrorCode, message: string): void {
    this.reject(id, code, message);
    this.socket.end();
    this.closed = true;
  }

  private write(message: unknown): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(encodeLine(message));
  }

  private handleClose(): void {
    if (this.released) return;
    this.released = true;
    this.closed = true;
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    this.cancelledBeforeStart.clear();
    this.onClosed(this);
  }
}

function idOf(json: unknown): string | null {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}
