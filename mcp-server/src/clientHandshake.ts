// The client's side of the IPC handshake. The server must prove it holds the token before the
// client shows anything derived from it, so whatever else listens at the socket path (a squatter
// on a predictable pipe name, an old window) learns neither the token nor a usable proof.

import type { Socket } from 'net';
import { clientProof, createNonce, proofsMatch, serverProof } from '../../shared/authProof';
import { encodeLine } from '../../shared/framing';
import { Disposable, toDisposable } from '../../shared/lifecycle';
import {
  Challenge,
  ErrorCode,
  HelloResult,
  IPC_TOKEN_ENV,
  IpcError,
  PROTOCOL_VERSION,
  ResponseMessage,
} from '../../shared/protocol';

export interface HandshakeParams {
  readonly socket: Socket;
  readonly socketPath: string;
  readonly token: string;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface Handshaken {
  readonly server: HelloResult['server'];
  /** Bytes that came after the final handshake line; the socket is left paused. */
  readonly rest: Buffer;
}

/** No handshake line is anywhere near this; a listener that sends more is not a Redline window. */
const MAX_HANDSHAKE_BYTES = 64 * 1024;

/** Thrown when the socket closes mid-handshake: worth another attempt, like a refused connect. */
export class HandshakeInterrupted extends Error {
  readonly code = 'ECONNRESET';
}

export async function authenticate(params: HandshakeParams): Promise<Handshaken> {
  const lines = new LineReader(params);
  try {
    const clientNonce = createNonce();
    params.socket.write(
      encodeLine({
        type: 'hello',
        id: 'hello',
        clientNonce,
        protocolVersion: PROTOCOL_VERSION,
        client: { ...params.clientInfo, pid: process.pid },
      }),
    );
    const challenge = Challenge.safeParse(resultOf(await lines.next(), params.socketPath));
    if (!challenge.success) throw impostor(params.socketPath, 'it did not answer the hello as Redline does');
    if (challenge.data.protocolVersion !== PROTOCOL_VERSION) throw versionMismatch(challenge.data.protocolVersion);
    const expected = serverProof(params.token, clientNonce, challenge.data.serverNonce);
    if (!proofsMatch(challenge.data.serverProof, expected))
      throw impostor(params.socketPath, `it could not prove that it holds the token in ${IPC_TOKEN_ENV}`);

    params.socket.write(
      encodeLine({
        type: 'auth',
        id: 'auth',
        clientProof: clientProof(params.token, challenge.data.serverNonce, clientNonce),
      }),
    );
    const hello = HelloResult.safeParse(resultOf(await lines.next(), params.socketPath));
    if (!hello.success) throw impostor(params.socketPath, 'it did not accept the connection as Redline does');
    return { server: hello.data.server, rest: lines.finish() };
  } finally {
    await lines.dispose();
  }
}

/** The result of a reply, or the IpcError it carried, said in terms of what to do. */
function resultOf(line: string, socketPath: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw impostor(socketPath, 'it answered with something that is not JSON');
  }
  const reply = ResponseMessage.safeParse(json);
  if (!reply.success) throw impostor(socketPath, 'it did not answer as Redline does');
  if (!('error' in reply.data)) return reply.data.result;
  const { code, message } = reply.data.error;
  // A window from before protocol 2 refuses a hello without a token as invalid.
  if (code === ErrorCode.VersionMismatch || code === ErrorCode.InvalidMessage) {
    throw new IpcError(
      ErrorCode.VersionMismatch,
      `${message} (The VS Code window's Redline and this MCP server are different versions: update Redline, then restart the assistant.)`,
    );
  }
  if (code === ErrorCode.Unauthorized) {
    throw new IpcError(
      ErrorCode.Unauthorized,
      `VS Code refused this MCP server's proof of the token in ${IPC_TOKEN_ENV} (${message}). Open a new terminal in the VS Code ` +
        "window you want and start the assistant from there, so that it gets that window's token.",
    );
  }
  throw new IpcError(code as ErrorCode, message);
}

function impostor(socketPath: string, why: string): IpcError {
  return new IpcError(
    ErrorCode.Unauthorized,
    `Something other than this terminal's VS Code window is listening at ${socketPath}: ${why}, so Redline told it nothing and ` +
      `disconnected. If the window was restarted, its token changed: open a new terminal in it and start the assistant from there. ` +
      `Otherwise check who created ${socketPath}.`,
  );
}

function versionMismatch(serverVersion: number): IpcError {
  return new IpcError(
    ErrorCode.VersionMismatch,
    `The VS Code window's Redline speaks IPC protocol ${serverVersion}, but this MCP server speaks ${PROTOCOL_VERSION}. ` +
      'Update Redline so that both are the same version, then restart the assistant.',
  );
}

/** Reads the handshake's lines, under a byte cap, a deadline and the caller's signal. */
class LineReader extends Disposable {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve(line: string): void; reject(error: Error): void } | undefined;
  private failure: Error | undefined;

  constructor(private readonly params: HandshakeParams) {
    super();
    const { socket, signal } = params;
    const timer = setTimeout(
      () =>
        this.fail(
          new IpcError(
            ErrorCode.Timeout,
            `VS Code at ${params.socketPath} did not complete the handshake within ${params.timeoutMs} ms.`,
          ),
        ),
      params.timeoutMs,
    );
    this.register(toDisposable(() => clearTimeout(timer)));
    const onData = (chunk: Buffer) => this.receive(chunk);
    socket.on('data', onData);
    this.register(toDisposable(() => void socket.off('data', onData)));
    const onClose = () => this.fail(new HandshakeInterrupted('The connection closed during the handshake.'));
    socket.on('close', onClose);
    this.register(toDisposable(() => void socket.off('close', onClose)));
    const onAbort = () =>
      this.fail(new IpcError(ErrorCode.Cancelled, 'The call was cancelled while connecting to VS Code.'));
    signal?.addEventListener('abort', onAbort, { once: true });
    this.register(toDisposable(() => signal?.removeEventListener('abort', onAbort)));
    if (signal?.aborted) onAbort();
  }

  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.deliver();
    });
  }

  /** Stops reading and hands over what came after the last line. */
  finish(): Buffer {
    this.params.socket.pause();
    return this.buffered;
  }

  private receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const newline = this.buffered.indexOf(0x0a);
    if ((newline === -1 ? this.buffered.length : newline) > MAX_HANDSHAKE_BYTES) {
      this.fail(
        impostor(this.params.socketPath, `it sent a line of over ${MAX_HANDSHAKE_BYTES} bytes during the handshake`),
      );
      return;
    }
    this.deliver();
  }

  private deliver(): void {
    if (!this.waiting) return;
    // A reply that arrived before the close still counts: it says why the server closed.
    const newline = this.failure instanceof HandshakeInterrupted || !this.failure ? this.buffered.indexOf(0x0a) : -1;
    if (newline === -1) {
      if (this.failure) {
        this.waiting.reject(this.failure);
        this.waiting = undefined;
      }
      return;
    }
    const line = this.buffered.subarray(0, newline).toString('utf8');
    this.buffered = this.buffered.subarray(newline + 1);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve(line);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    if (!(error instanceof HandshakeInterrupted)) this.params.socket.destroy();
    this.deliver();
  }
}
