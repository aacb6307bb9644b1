// The server's side of the handshake, before a connection may make requests: a byte budget for
// everything sent before authentication, the hello/challenge/auth exchange, and a refusal at the
// first line that is not the next step. Pure over bytes in and messages out, so it is tested alone.

import { createNonce, clientProof, proofsMatch, serverProof } from '../../../shared/authProof';
import {
  ClientMessage,
  ErrorCode,
  PROTOCOL_VERSION,
  describeIssues,
  type Challenge,
  type HelloMessage,
  type HelloResult,
} from '../../../shared/protocol';
import type { RefusalKind } from './refusalLog';

export interface ServerHandshakeOptions {
  readonly token: string;
  readonly serverInfo: HelloResult['server'];
  /** Everything a peer may send before it is authenticated, in bytes. */
  readonly maxBytes: number;
}

export type HandshakeOutcome =
  | { readonly kind: 'pending' }
  /** `rest`: bytes that came after the accepted auth line, for the request decoder. */
  | { readonly kind: 'accepted'; readonly client: HelloMessage['client']; readonly rest: Buffer }
  | { readonly kind: 'refused'; readonly reason: RefusalKind; readonly detail: string };

type Send = (message: unknown) => void;

/** What the peer is told before the connection closes; `code` is Unauthorized unless given. */
interface Refusal {
  readonly id: string | null;
  readonly reason: RefusalKind;
  readonly message: string;
  readonly code?: number;
}

export class ServerHandshake {
  private buffered: Buffer = Buffer.alloc(0);
  /** Bytes of complete lines already handled. */
  private consumed = 0;
  private hello:
    { readonly clientNonce: string; readonly serverNonce: string; readonly client: HelloMessage['client'] } | undefined;
  private outcome: HandshakeOutcome = { kind: 'pending' };

  constructor(
    private readonly options: ServerHandshakeOptions,
    private readonly send: Send,
  ) {}

  push(chunk: Buffer): HandshakeOutcome {
    if (this.outcome.kind !== 'pending') return this.outcome;
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const newline = this.buffered.indexOf(0x0a);
      const lineEnd = newline === -1 ? this.buffered.length : newline + 1;
      if (this.consumed + lineEnd > this.options.maxBytes) {
        this.outcome = this.refuse({
          id: null,
          reason: 'flood',
          message: `Sent over ${this.options.maxBytes} bytes before authenticating; closing this connection.`,
          code: ErrorCode.LineTooLong,
        });
        this.buffered = Buffer.alloc(0);
        return this.outcome;
      }
      if (newline === -1) return this.outcome;
      const line = this.buffered.subarray(0, newline).toString('utf8');
      this.buffered = this.buffered.subarray(lineEnd);
      this.consumed += lineEnd;
      const outcome = line.trim() === '' ? this.outcome : this.step(line);
      if (outcome.kind !== 'pending') {
        this.outcome = outcome.kind === 'accepted' ? { ...outcome, rest: this.buffered } : outcome;
        this.buffered = Buffer.alloc(0);
        return this.outcome;
      }
    }
  }

  private step(line: string): HandshakeOutcome {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return this.refuse({
        id: null,
        reason: 'invalid',
        message: 'Not valid JSON. The first message must be a hello; closing this connection.',
        code: ErrorCode.ParseError,
      });
    }
    const id = idOf(json);
    // Said before the schema check, which an older or newer client's hello would fail.
    const version = (json as { type?: unknown; protocolVersion?: unknown } | null)?.protocolVersion;
    if ((json as { type?: unknown } | null)?.type === 'hello' && version !== PROTOCOL_VERSION) {
      return this.refuse({
        id,
        reason: 'version',
        message:
          `This VS Code window's Redline speaks IPC protocol ${PROTOCOL_VERSION}, but the MCP server speaks ${String(version)}. ` +
          'Update Redline so that the extension and the MCP server are the same version, then restart the assistant.',
        code: ErrorCode.VersionMismatch,
      });
    }
    const parsed = ClientMessage.safeParse(json);
    if (!parsed.success) {
      return this.refuse({
        id,
        reason: 'invalid',
        message: `Invalid message: ${describeIssues(parsed.error)}; closing this connection.`,
        code: ErrorCode.InvalidMessage,
      });
    }
    const message = parsed.data;
    if (!this.hello) {
      if (message.type !== 'hello') {
        return this.refuse({
          id: message.id,
          reason: 'unauthorized',
          message: 'Unauthorized: the first message must be a hello.',
        });
      }
      const serverNonce = createNonce();
      this.hello = { clientNonce: message.clientNonce, serverNonce, client: message.client };
      const challenge: Challenge = {
        protocolVersion: PROTOCOL_VERSION,
        serverNonce,
        serverProof: serverProof(this.options.token, message.clientNonce, serverNonce),
      };
      this.send({ type: 'response', id: message.id, result: challenge });
      return { kind: 'pending' };
    }
    if (message.type !== 'auth') {
      return this.refuse({
        id: message.id,
        reason: 'unauthorized',
        message: 'Unauthorized: after the challenge, the next message must be an auth.',
      });
    }
    const expected = clientProof(this.options.token, this.hello.serverNonce, this.hello.clientNonce);
    if (!proofsMatch(message.clientProof, expected)) {
      return this.refuse({
        id: message.id,
        reason: 'unauthorized',
        message: "Unauthorized: the proof does not match this window's token.",
      });
    }
    const result: HelloResult = { protocolVersion: PROTOCOL_VERSION, server: this.options.serverInfo };
    this.send({ type: 'response', id: message.id, result });
    return { kind: 'accepted', client: this.hello.client, rest: Buffer.alloc(0) };
  }

  private refuse({ id, reason, message, code = ErrorCode.Unauthorized }: Refusal): HandshakeOutcome {
    this.send({ type: 'response', id, error: { code, message } });
    return { kind: 'refused', reason, detail: message };
  }
}

/** The id to answer a message with, when it has a usable one; null otherwise. */
export function idOf(json: unknown): string | null {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}
