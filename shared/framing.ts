// Newline-delimited JSON framing for the IPC socket, shared by the extension and the MCP server.
// Chunks are kept as Buffers until a newline arrives, so a 10 MiB line costs one concat, and a
// multi-byte character split across two chunks is decoded whole.

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface LineDecoderEvents {
  /** One complete line, without its newline (and without a trailing `\r`). Blank lines are skipped. */
  onLine(line: string): void;
  /** The line being received grew past the limit; the decoder accepts nothing more after this. */
  onOverflow(receivedBytes: number, maxLineBytes: number): void;
}

export class LineDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;

  constructor(
    private readonly events: LineDecoderEvents,
    readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.overflowed && start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      const size = this.pendingBytes + (end - start);
      if (size > this.maxLineBytes) {
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
      const line = this.takeLine(chunk.subarray(start, end));
      start = newline + 1;
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

  private fail(size: number): void {
    this.overflowed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.events.onOverflow(size, this.maxLineBytes);
  }
}

/** One message as one line. JSON.stringify escapes every newline inside strings, so the framing holds. */
export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}
