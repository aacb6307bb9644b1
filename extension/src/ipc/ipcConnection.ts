// One client of the IPC server: the handshake under a byte budget and a deadline, then requests
// run side by side (requestRunner.ts), with writes that respect the peer's reading speed.

import type { Socket } from 'net';
import { LineDecoder } from '../../../shared/framing';
import { LineWriter } from './lineWriter';
import type { ConnectionOptions } from './connectionOptions';
import { OFF_THREAD_LINE_BYTES, type ParsedLine } from './lineParser';
import { OrderedLines } from './orderedLines';
import { ClientMessage, ErrorCode, describeIssues, type EventName, type EventPayload } from '../../../shared/protocol';
import { RequestRunner, type Reply } from './requestRunner';
import { idOf, ServerHandshake } from './serverHandshake';

export interface ConnectionEvents {
  authenticated(connection: IpcConnection): void;
  closed(connection: IpcConnection): void;
  /** After every write: the window's cap on unsent bytes is across connections (windowCaps.ts). */
  wrote(connection: IpcConnection): void;
}

/** A retired connection closes once its client has sent nothing for this long. */
const RETIRED_QUIET_MS = 500;

const RETIRED_MESSAGE = "The window's token changed; send this request again on a new connection.";

export class IpcConnection {
  private handshake: ServerHandshake | undefined;
  private decoder: LineDecoder | undefined;
  private runner: RequestRunner | undefined;
  private authTimer: NodeJS.Timeout | undefined;
  /** No more input is accepted (set on a fatal error, before the socket finishes closing). */
  private closed = false;
  /** This connection's state has been freed and the server told. */
  private released = false;
  /** Set by retire(): the connection closes as soon as nothing is running. */
  private retiring = false;
  /** Why reading is paused: the peer is not reading our answers, or every request slot is taken. */
  private readonly pausedFor = new Set<'writes' | 'requests' | 'parsing'>();
  /** Every line is handled in the order it came, a large one once it is parsed off this thread. */
  private readonly incoming: OrderedLines;
  /** When the peer last sent anything: of idle connections past the window's cap, the oldest goes. */
  lastActive = Date.now();
  private readonly lines = new LineWriter((bytes) => this.writeBytes(bytes));

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
    private readonly events: ConnectionEvents,
  ) {
    this.handshake = new ServerHandshake(
      { token: options.token, serverInfo: options.serverInfo, maxBytes: options.limits.preAuthMaxBytes },
      (message) => this.write(message),
    );
    this.authTimer = setTimeout(() => {
      this.options.refusals.refused('timeout', { connection: options.id, afterMs: options.limits.authTimeoutMs });
      this.write({
        type: 'response',
        id: null,
        error: { code: ErrorCode.Unauthorized, message: 'Did not authenticate in time; closing this connection.' },
      });
      this.shut();
    }, options.limits.authTimeoutMs);
    this.incoming = new OrderedLines(options.lineParser, {
      handle: (line) => this.receiveParsed(line),
      waiting: (waiting) => (waiting ? this.pause('parsing') : this.resume('parsing')),
      failed: (error) => options.log.warn('line-failed', { connection: options.id, error }),
    });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => this.resume('writes'));
    socket.on('error', (error) => this.options.log.debug('socket-error', { connection: options.id, error }));
    socket.on('close', () => this.handleClose());
  }

  get id(): number {
    return this.options.id;
  }

  get isAuthenticated(): boolean {
    return this.runner !== undefined;
  }

  /** Still open and not yet authenticated: what the server's cap on such connections counts. */
  get isAwaitingAuth(): boolean {
    return !this.closed && this.runner === undefined;
  }

  /** Nothing running or waiting: closing it loses no one's reply. */
  get isIdle(): boolean {
    return this.runner?.idle ?? true;
  }

  /** Bytes written to the peer that it has not read yet. */
  get unsentBytes(): number {
    return this.socket.writableLength;
  }

  /** Nothing on a retired connection: what the old token may still read is the replies to its own running calls. */
  sendEvent<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (this.runner && !this.retiring) this.write({ type: 'event', event, payload });
  }

  close(): void {
    if (!this.socket.destroyed) this.socket.destroy();
    this.handleClose();
  }

  /**
   * For a token rotation: runs no further request (each is refused unrun, those waiting for a slot
   * too, and the client sends them again on a new connection), answers those already running,
   * however long they take, then closes: no assistant loses the reply to a call the window accepted,
   * which may already have changed the review. The old token keeps no door open: a connection still
   * proving itself closes at once, a retired one hears no more events, and each running request
   * ends by its own deadline (requestRunner.ts), which bounds how long the connection stays.
   */
  retire(): void {
    if (!this.runner) return this.close();
    // Told first, so that the client sends nothing more here; what it sent already is still read.
    this.sendEvent('connection-retiring', {});
    this.retiring = true;
    this.runner.refuseWaiting(ErrorCode.Retired, RETIRED_MESSAGE);
    this.closeIfRetiredAndIdle();
  }

  /** Once nothing runs and the client has been quiet for a moment (a request may be arriving still). */
  private closeIfRetiredAndIdle(): void {
    if (!this.retiring || this.closed || !this.runner?.idle || !this.lines.idle) return;
    const quietFor = Date.now() - this.lastActive;
    if (quietFor >= RETIRED_QUIET_MS) this.shut();
    else setTimeout(() => this.closeIfRetiredAndIdle(), RETIRED_QUIET_MS - quietFor).unref();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    this.lastActive = Date.now();
    if (this.decoder) {
      this.decoder.push(chunk);
      return;
    }
    const outcome = this.handshake!.push(chunk);
    if (outcome.kind === 'refused') {
      this.options.refusals.refused(outcome.reason, { connection: this.id });
      this.shut();
    } else if (outcome.kind === 'accepted') {
      this.open(outcome.client, outcome.rest);
    }
  }

  private open(client: unknown, rest: Buffer): void {
    clearTimeout(this.authTimer);
    this.handshake = undefined;
    this.runner = new RequestRunner(
      {
        connectionId: this.id,
        handlers: this.options.handlers,
        maxInFlight: this.options.limits.maxInFlight,
        maxQueued: this.options.limits.maxQueued,
        requestTimeoutMs: this.options.limits.requestTimeoutMs,
        log: this.options.log,
        observer: this.options.observer,
        sendProgress: (id, update) => this.write({ type: 'progress', id, ...update }),
      },
      (id, reply: Reply) => {
        this.write({ type: 'response', id, ...reply });
        // The runner lets go of the request once its reply is written; a large one is still being encoded.
        if (this.retiring) void this.lines.drained().then(() => this.closeIfRetiredAndIdle());
      },
      (saturated) => (saturated ? this.pause('requests') : this.resume('requests')),
    );
    this.decoder = new LineDecoder(
      {
        onLine: (line) => this.incoming.text(line),
        onLargeLine: (bytes) => this.incoming.bytes(bytes),
        onOverflow: (size, max) => {
          this.options.log.debug('line-too-long', { connection: this.id, size, max });
          this.write({
            type: 'response',
            id: null,
            error: {
              code: ErrorCode.LineTooLong,
              message: `Message larger than ${max} bytes; closing this connection.`,
            },
          });
          this.shut();
        },
      },
      this.options.maxLineBytes,
      OFF_THREAD_LINE_BYTES,
    );
    this.options.log.debug('client-authenticated', { connection: this.id, client });
    this.events.authenticated(this);
    if (rest.length > 0) this.decoder.push(rest);
  }

  private receiveParsed(line: ParsedLine): void {
    if (this.closed || line.kind === 'blank') return;
    if (line.kind === 'invalid')
      return this.reject(null, ErrorCode.ParseError, 'Not valid JSON. Send one JSON message per line.');
    this.receiveMessage(line.value);
  }

  private receiveMessage(json: unknown): void {
    const parsed = ClientMessage.safeParse(json);
    if (!parsed.success) {
      this.reject(idOf(json), ErrorCode.InvalidMessage, `Invalid message: ${describeIssues(parsed.error)}`);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'hello':
      case 'auth':
        this.reject(message.id, ErrorCode.InvalidMessage, 'Already authenticated on this connection.');
        return;
      case 'cancel':
        this.runner!.cancel(message.id);
        return;
      case 'request':
        // Refused unrun rather than left unread: the client sends it again at once on a new connection.
        if (!this.retiring) this.runner!.submit(message);
        else {
          this.reject(message.id, ErrorCode.Retired, RETIRED_MESSAGE);
          this.closeIfRetiredAndIdle();
        }
        return;
    }
  }

  private reject(id: string | null, code: ErrorCode, message: string): void {
    this.write({ type: 'response', id, error: { code, message } });
  }

  private write(message: unknown): void {
    if (this.socket.destroyed || !this.socket.writable) return;
    this.lines.write(message);
  }

  /**
   * Writes, then stops reading while the peer has more than `writePauseBytes` unread, so that a
   * peer that sends without reading gets no further answers queued; past `writeDropBytes`
   * (answers already running when reading stopped) it is dropped.
   */
  private writeBytes(bytes: string | Buffer): void {
    if (this.socket.destroyed || !this.socket.writable) return;
    this.socket.write(bytes);
    const unsent = this.socket.writableLength;
    if (unsent > this.options.limits.writeDropBytes) {
      this.options.refusals.refused('backpressure', { connection: this.id, unsent });
      this.close();
    } else if (unsent > this.options.limits.writePauseBytes) {
      this.pause('writes');
    }
    if (!this.closed) this.events.wrote(this);
  }

  private pause(reason: 'writes' | 'requests' | 'parsing'): void {
    this.pausedFor.add(reason);
    this.socket.pause();
  }

  private resume(reason: 'writes' | 'requests' | 'parsing'): void {
    if (!this.pausedFor.delete(reason) || this.pausedFor.size > 0 || this.closed) return;
    this.socket.resume();
  }

  /** Sends what was written, then closes: for failures after which the stream cannot be trusted. */
  private shut(): void {
    this.closed = true;
    clearTimeout(this.authTimer);
    // After the lines already sent, a large reply included.
    void this.lines.drained().then(() => this.socket.end());
    // A peer that never reads would keep a half-closed socket; the reply is best effort.
    setTimeout(() => this.close(), 1000).unref();
  }

  private handleClose(): void {
    if (this.released) return;
    this.released = true;
    this.closed = true;
    clearTimeout(this.authTimer);
    this.runner?.abortAll();
    this.options.log.debug('connection-closed', { connection: this.id });
    this.events.closed(this);
  }
}
