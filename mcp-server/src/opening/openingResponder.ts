// Answers a client's opening from the full server's answers captured at build time
// (openingCapture.ts), while the SDK and zod are still loading. Every message is kept and replayed
// to the full server, so it knows the client as if it had read the opening itself; its answers to
// what was answered here are dropped (fullServer.ts). The stream is handed over at the first
// message not recognized (openingMessages.ts), or once tools/list is answered.

import { recognizeOpening, type ListMethod, type OpeningMessage, type RequestId } from './openingMessages';

/** The full server's answers to one kind of client, captured when the bundle is built. */
export interface OpeningAnswers {
  /** The initialize result for each protocol version the server accepts, keyed by that version. */
  readonly initialize: Readonly<Record<string, object>>;
  /** The initialize result when the client asks for any other version. */
  readonly initializeOtherwise: object;
  /** The lists, as answered after initialize. */
  readonly legacy: Readonly<Record<ListMethod, object>>;
  /** server/discover and the lists, as answered to a request in the 2026-07-28 envelope. */
  readonly modern: Readonly<Record<ListMethod | 'server/discover', object>>;
}

/** The answers to a client that renders no views, and those to one that declares the MCP Apps extension. */
export interface PublishedOpening extends OpeningAnswers {
  readonly withUi: OpeningAnswers;
}

/** What the full server needs to carry on where the opening left off. */
export interface HandOff {
  /** Everything received, in order: the full server reads it as if it had been there. */
  readonly received: Buffer;
  /** The requests answered here: the full server's answers to them are not sent again. */
  readonly answered: readonly RequestId[];
}

export interface OpeningIo {
  /** Writes one line to stdout, and calls `written` once it has been handed to the OS. */
  write(line: string, written: () => void): void;
  handOff(state: HandOff): void;
}

/** An opening message is a few hundred bytes; a longer line is something else (a review on its way). */
export const MAX_OPENING_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

export class OpeningResponder {
  private readonly chunks: Buffer[] = [];
  /** Where the unread part of the last chunk starts: lines before it have been handled. */
  private pending: Buffer = Buffer.alloc(0);
  private readonly answered: RequestId[] = [];
  /** Set by the first message that decides it, as the SDK's stdio entry decides it. */
  private era: 'legacy' | 'modern' | undefined;
  /** Whether a 2025-era client declared the MCP Apps extension in its initialize. */
  private legacyUi = false;
  private handedOff = false;

  constructor(
    private readonly published: PublishedOpening,
    private readonly io: OpeningIo,
  ) {}

  push(chunk: Buffer): void {
    if (this.handedOff) throw new Error('The opening was already handed off.');
    this.chunks.push(chunk);
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (
      let newline = this.pending.indexOf(NEWLINE);
      newline !== -1 && !this.handedOff;
      newline = this.pending.indexOf(NEWLINE)
    ) {
      const answer = this.answerTo(recognizeOpening(this.pending.toString('utf8', 0, newline)));
      this.pending = this.pending.subarray(newline + 1);
      if (answer === 'hand-off') this.handOff();
    }
    if (this.pending.length > MAX_OPENING_LINE_BYTES) this.handOff();
  }

  /** Answers `message` if it may; says when the full server must take over. */
  private answerTo(message: OpeningMessage | undefined): 'answered' | 'hand-off' {
    if (!message) return 'hand-off';
    const answers = (ui: boolean): OpeningAnswers => (ui ? this.published.withUi : this.published);
    switch (message.method) {
      case 'initialize': {
        if (this.era !== undefined) return 'hand-off';
        this.era = 'legacy';
        this.legacyUi = message.ui;
        const published = answers(message.ui);
        return this.respond(message.id, published.initialize[message.protocolVersion] ?? published.initializeOtherwise);
      }
      case 'notifications/initialized':
        return this.era === 'legacy' ? 'answered' : 'hand-off';
      case 'server/discover':
        // A probe: it answers without deciding the era, and an initialize may still follow.
        return this.era === 'legacy'
          ? 'hand-off'
          : this.respond(message.id, answers(message.ui).modern['server/discover']);
      case 'logging/setLevel':
      case 'ping':
        return this.era === 'legacy' ? this.respond(message.id, {}) : 'hand-off';
      default: {
        const era = message.modern ? 'modern' : 'legacy';
        // A list with no opening at all, or in the other era's form, is the full server's to judge.
        if (era === 'legacy' ? this.era !== 'legacy' : this.era === 'legacy') return 'hand-off';
        this.era = era;
        // Once the tools are out, the SDK loads while the client reads them.
        const written = message.method === 'tools/list' ? () => setImmediate(() => this.handOff()) : undefined;
        const published = answers(era === 'legacy' ? this.legacyUi : message.ui);
        return this.respond(message.id, published[era][message.method], written);
      }
    }
  }

  private respond(id: RequestId, result: object, written: () => void = () => undefined): 'answered' {
    this.answered.push(id);
    // The SDK's own shape of a reply (Protocol._onrequest), so that the bytes do not change at the hand-off.
    this.io.write(JSON.stringify({ result, jsonrpc: '2.0', id }) + '\n', written);
    return 'answered';
  }

  private handOff(): void {
    if (this.handedOff) return;
    this.handedOff = true;
    this.io.handOff({ received: Buffer.concat(this.chunks), answered: this.answered });
  }
}
