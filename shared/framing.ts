// Newline-delimited JSON framing for the IPC socket and the MCP server's stdin, shared by the
// extension and the MCP server. Chunks are kept as Buffers until a newline arrives, so a 10 MiB
// line costs one concat, and a multi-byte character split across two chunks is decoded whole.

import { yieldThread } from './threadYield';
import { LARGE_STRING_CHARS, jsonInSlices } from './jsonInSlices';

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface LineDecoderEvents {
  /** One complete line, without its newline (and without a trailing `\r`). Blank lines are skipped. */
  onLine(line: string): void;
  /**
   * The line being received grew past the limit. Without `onSkipped` the decoder accepts nothing
   * more after this (a socket peer that sends such a line is dropped).
   */
  onOverflow?(receivedBytes: number, maxLineBytes: number): void;
  /**
   * With this, an over-limit line is skipped instead: its bytes are dropped as they arrive, and once
   * its newline does, this reports its size and its first bytes, and decoding goes on.
   */
  onSkipped?(line: SkippedLine): void;
  /**
   * With this, a complete line of `largeLineBytes` or more comes here as its bytes (a Buffer of
   * its own, not a view of a chunk), undecoded and untrimmed, instead of to `onLine`:
   * decoding and parsing a line of megabytes is left to a thread that can spare the time.
   */
  onLargeLine?(bytes: Buffer): void;
}

export interface SkippedLine {
  readonly bytes: number;
  /** The line's first SKIPPED_HEAD_BYTES bytes, as text: enough to find a JSON-RPC id that comes early. */
  readonly head: string;
}

/** How much of a skipped line is kept to say what it was. */
export const SKIPPED_HEAD_BYTES = 4096;

export class LineDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;
  /** The over-limit line being skipped: its size so far and its first bytes. */
  private skipping: { bytes: number; head: Buffer } | undefined;

  constructor(
    private readonly events: LineDecoderEvents,
    readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
    /** The size from which a line goes to `onLargeLine`, when there is one. */
    readonly largeLineBytes: number = Infinity,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.overflowed && start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.skipping) {
        const skipping = this.skipping;
        skipping.bytes += end - start;
        if (skipping.head.length < SKIPPED_HEAD_BYTES) {
          skipping.head = Buffer.concat([
            skipping.head,
            chunk.subarray(start, Math.min(end, start + SKIPPED_HEAD_BYTES - skipping.head.length)),
          ]);
        }
        if (newline === -1) return;
        this.skipping = undefined;
        this.events.onSkipped!({ bytes: skipping.bytes, head: skipping.head.toString('utf8') });
        start = newline + 1;
        continue;
      }
      const size = this.pendingBytes + (end - start);
      if (size > this.maxLineBytes) {
        if (this.events.onSkipped) {
          this.startSkipping();
          continue;
        }
        this.fail(size);
        return;
      }
      if (newline === -1) {
        if (end > start) {
          this.pending.push(chunk.subarray(start, end));
          this.pendingBytes = size;
        }
        return;
      }
      const piece = chunk.subarray(start, end);
      start = newline + 1;
      if (this.events.onLargeLine && size >= this.largeLineBytes) {
        this.events.onLargeLine(this.takeBytes(piece));
        continue;
      }
      const line = this.takeLine(piece);
      if (line.trim() !== '') this.events.onLine(line);
    }
  }

  private takeLine(lastPiece: Buffer): string {
    const bytes = this.pending.length === 0 ? lastPiece : Buffer.concat([...this.pending, lastPiece]);
    this.pending = [];
    this.pendingBytes = 0;
    const text = bytes.toString('utf8');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /** The line's bytes in a buffer of their own: never a view of a chunk that other lines share. */
  private takeBytes(lastPiece: Buffer): Buffer {
    const bytes = Buffer.concat([...this.pending, lastPiece]);
    this.pending = [];
    this.pendingBytes = 0;
    return bytes;
  }

  /** Turns what is pending into the start of a skipped line; the loop then takes the current piece as part of it. */
  private startSkipping(): void {
    const head = Buffer.concat(this.pending).subarray(0, SKIPPED_HEAD_BYTES);
    this.skipping = { bytes: this.pendingBytes, head: Buffer.from(head) };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private fail(size: number): void {
    this.overflowed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.events.onOverflow?.(size, this.maxLineBytes);
  }
}

/** One message as one line. JSON.stringify escapes every newline inside strings, so the framing holds. */
export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}

/**
 * encodeLine's bytes, made a slice per task, for a message that holds a string of megabytes
 * (get-review of a large review), which escaped and encoded at once would hold the thread. Write
 * the buffers in order, all in one go, so that no other line lands between them.
 */
export async function encodeLineInSlices(message: unknown): Promise<Buffer[]> {
  const buffers: Buffer[] = [];
  for (const [index, part] of (await jsonInSlices(message)).entries()) {
    if (index > 0 && part.length > LARGE_STRING_CHARS / 4) await yieldThread();
    buffers.push(Buffer.from(part, 'utf8'));
  }
  buffers.push(Buffer.from('\n'));
  return buffers;
}
