// The MCP server's stdio transport. Its line decoder is linear in a message's size (the SDK's
// re-copies its buffer on every chunk), and a message over the limit is answered with an error
// for its id instead of closing. When the client closes its end of stdout (EPIPE), the transport
// closes: every send settles, none waits for a 'drain' that cannot come, and nothing is thrown.

import { parseJSONRPCMessage, type JSONRPCMessage, type RequestId, type Transport } from '@modelcontextprotocol/server';
import type { Readable, Writable } from 'stream';
import { encodeLine, LineDecoder, type SkippedLine } from '../../shared/framing';
import { ErrorCode, MAX_FRAME_BYTES } from '../../shared/protocol';

/**
 * The largest message read from stdin: a present-review of the largest review the schema accepts,
 * with every character escaped at JSON's worst (six bytes), as on the socket, rounded up.
 */
export const MAX_STDIN_MESSAGE_BYTES = Math.max(MAX_FRAME_BYTES, 64 * 1024 * 1024);

// The first "id" member in a skipped message's head. Clients write `id` before `params`, so it is
// found there; one written after a huge `params` is not, and the error then goes out with id null.
const LEADING_ID = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;

export interface StdioTransportOptions {
  /** Sees every message read, before the server does. */
  readonly observe?: (message: JSONRPCMessage) => void;
  /** Bytes read from stdin before this transport existed, decoded first. */
  readonly alreadyRead?: Buffer;
  readonly maxMessageBytes?: number;
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly decoder: LineDecoder;
  private readonly onData = (chunk: Buffer) => this.decoder.push(chunk);
  private readonly onError = (error: Error) => this.onerror?.(error);
  /** One wait for 'drain' shared by every send that found stdout full. */
  private drained: Promise<void> | undefined;
  /** Ends that wait early: stdout closed, or the transport did. */
  private endDrainWait: (() => void) | undefined;
  private closed = false;
  /** Stays on stdout for good: an 'error' with no listener would end the process. */
  private readonly onOutputError = (error: Error) => this.outputGone(error);
  private readonly onOutputClose = () => this.outputGone(undefined);
  private readonly observe: (message: JSONRPCMessage) => void;
  private readonly alreadyRead: Buffer;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    {
      observe = () => undefined,
      alreadyRead = Buffer.alloc(0),
      maxMessageBytes = MAX_STDIN_MESSAGE_BYTES,
    }: StdioTransportOptions = {},
  ) {
    this.observe = observe;
    this.alreadyRead = alreadyRead;
    this.decoder = new LineDecoder(
      { onLine: (line) => this.receive(line), onSkipped: (line) => this.refuse(line) },
      maxMessageBytes,
    );
    // Held until start(): a flowing stream with no 'data' listener drops what arrives.
    input.pause();
    output.on('error', this.onOutputError);
    output.once('close', this.onOutputClose);
  }

  async start(): Promise<void> {
    if (this.alreadyRead.length > 0) this.decoder.push(this.alreadyRead);
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
    this.input.resume();
  }

  /** Resolves once the message is handed to stdout, or at once when the transport is closed (nothing is sent then). */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.output.destroyed) return;
    if (!this.output.write(encodeLine(message))) await (this.drained ??= this.waitForDrain());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.output.off('close', this.onOutputClose);
    this.endDrainWait?.();
    this.onclose?.();
  }

  private waitForDrain(): Promise<void> {
    return new Promise<void>((resolve) => {
      const end = () => {
        this.output.off('drain', end);
        this.drained = undefined;
        this.endDrainWait = undefined;
        resolve();
      };
      this.endDrainWait = end;
      this.output.on('drain', end);
    });
  }

  /** The client closed its end of stdout (EPIPE), or stdout failed: nothing more can reach it. */
  private outputGone(error: Error | undefined): void {
    if (this.closed) return;
    if (error) {
      const peerClosed = ['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED'].includes(
        (error as NodeJS.ErrnoException).code ?? '',
      );
      this.onerror?.(
        new Error(
          `stdout failed (${error.message})${peerClosed ? ': the client has closed its end' : ''}, so Redline's MCP server stops answering`,
        ),
      );
    }
    void this.close();
  }

  private receive(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      this.reply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(parsed);
    } catch {
      const id = (parsed as { id?: unknown } | null)?.id;
      this.reply(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        ErrorCode.InvalidMessage,
        'Invalid Request: not a JSON-RPC 2.0 message',
      );
      return;
    }
    this.observe(message);
    this.onmessage?.(message);
  }

  private refuse({ bytes, head }: SkippedLine): void {
    const match = LEADING_ID.exec(head)?.[1];
    const id: RequestId | null = match === undefined ? null : (JSON.parse(match) as RequestId);
    const limit = this.decoder.maxLineBytes;
    this.reply(
      id,
      ErrorCode.InvalidMessage,
      `Message too large: ${bytes} bytes, more than the ${limit}-byte limit. Split the review and send the rest with mode "append".`,
    );
    this.onerror?.(new Error(`skipped a ${bytes}-byte message on stdin (limit ${limit})`));
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    // JSON-RPC answers a request it could not read with id null; the SDK's types have no room for it.
    this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch((error: Error) =>
      this.onerror?.(error),
    );
  }
}
