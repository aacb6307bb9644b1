// A raw peer on a window's socket, for the tests below the MCP layer: bytes in and out, every reply
// parsed as it comes, and the handshake on demand. The one such peer of the test kit, used against
// the bridge alone (ipcKit.ts) and against a whole window (harness.ts) alike.

import * as net from 'net';
import { WAIT_DEADLINE_MS } from '../support/deadlines.cjs';
import { clientProof, createNonce } from '../../shared/authProof';
import { encodeLine, LineDecoder } from '../../shared/framing';
import {
  PROTOCOL_VERSION,
  type Challenge,
  type HelloResult,
  type Method,
  type ParamsOf,
  type ResultOf,
} from '../../shared/protocol';

/** A line from the window, as a test looks at it; `T`, its result where the test knows what was asked. */
export type WireReply<T = unknown> = {
  type?: string;
  id?: string | null;
  result?: T;
  error?: { code: number; message: string };
};

/** Matches the reply with this id. */
export const byId =
  (id: string | null) =>
  (reply: WireReply): boolean =>
    reply.id === id;

export class RawPeer {
  readonly replies: WireReply[] = [];
  closed = false;
  private waiters: Array<() => void> = [];
  private readonly closedPromise: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    const decoder = new LineDecoder({
      onLine: (line) => this.push(JSON.parse(line)),
      onOverflow: () => socket.destroy(),
    });
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
    socket.on('error', () => undefined);
    this.closedPromise = new Promise((resolve) =>
      socket.on('close', () => {
        this.closed = true;
        this.wake();
        resolve();
      }),
    );
  }

  static connect(socketPath: string): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath, () => resolve(new RawPeer(socket)));
      socket.once('error', reject);
    });
  }

  /**
   * The whole handshake with `token`: hello, then auth with the proof over the server's nonce.
   * Resolves with the answer to the auth (id `<id>-auth`), or with the refusal of the hello.
   */
  async hello(
    token: string,
    id = 'hello-1',
    protocolVersion: number = PROTOCOL_VERSION,
  ): Promise<WireReply<HelloResult>> {
    const clientNonce = createNonce();
    this.send({
      type: 'hello',
      id,
      clientNonce,
      protocolVersion,
      client: { name: 'raw', version: '1', pid: process.pid },
    });
    const { result: challenge, ...refusal } = await this.challenge(id);
    if (!challenge) return refusal;
    this.send({
      type: 'auth',
      id: `${id}-auth`,
      clientProof: clientProof(token, challenge.serverNonce, clientNonce),
    });
    return this.reply(`${id}-auth`) as Promise<WireReply<HelloResult>>;
  }

  /** The window's answer to the hello with this id: its challenge, or a refusal. */
  challenge(id: string): Promise<WireReply<Challenge>> {
    return this.reply(id) as Promise<WireReply<Challenge>>;
  }

  /** Sends a request for `method` with this id and resolves with its reply, the result typed by the method. */
  request<M extends Method>(
    method: M,
    params: ParamsOf<M>,
    options: { readonly id: string },
  ): Promise<WireReply<ResultOf<M>>> {
    this.send({ type: 'request', id: options.id, method, params });
    return this.reply(options.id) as Promise<WireReply<ResultOf<M>>>;
  }

  send(message: unknown): void {
    this.socket.write(encodeLine(message));
  }

  sendRaw(text: string): void {
    this.socket.write(text);
  }

  /** The reply with this id, once it has come; rejects when the socket closes first or it never comes (deadlines.cjs). */
  reply(id: string | null): Promise<WireReply> {
    return this.waitFor(byId(id));
  }

  /** The first reply matching, once it has come; rejects when the socket closes first or it never comes (deadlines.cjs). */
  waitFor(match: (reply: WireReply) => boolean): Promise<WireReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching reply in ${WAIT_DEADLINE_MS / 1000} s`)),
        WAIT_DEADLINE_MS,
      ).unref();
      const check = () => {
        const found = this.replies.find(match);
        if (found === undefined && !this.closed) return this.waiters.push(check);
        clearTimeout(timer);
        if (found !== undefined) resolve(found);
        else reject(new Error('the socket closed before a matching reply'));
      };
      check();
    });
  }

  /** Once the window has closed this socket; rejects when it stays open past the wait deadline (deadlines.cjs). */
  whenClosed(): Promise<void> {
    return Promise.race([
      this.closedPromise,
      new Promise<void>((_, reject) =>
        setTimeout(() => reject(new Error('socket stayed open')), WAIT_DEADLINE_MS).unref(),
      ),
    ]);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private push(reply: WireReply): void {
    this.replies.push(reply);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
