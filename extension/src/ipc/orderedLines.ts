// A connection's lines in the order they came, when some are parsed off the window's thread
// (lineParser.ts): a line behind a large one waits for it, so that a cancel never overtakes the
// request it cancels. While any line waits, the connection stops reading: what one connection
// holds here is bounded by one read.

import type { OffThreadLineParser, ParsedLine } from './lineParser';

export interface OrderedLinesEvents {
  /** One line, as parsed, in its turn. */
  handle(line: ParsedLine): void;
  /** True when a line starts waiting (stop reading), false when none waits any more. */
  waiting(waiting: boolean): void;
  /** A handler threw: logged, and the next line goes on. */
  failed(error: unknown): void;
}

export class OrderedLines {
  private behind = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly parser: OffThreadLineParser,
    private readonly events: OrderedLinesEvents,
  ) {}

  /** A line decoded here: handled at once unless a large one is still ahead of it. */
  text(line: string): void {
    if (this.behind === 0) return this.events.handle(parseHere(line));
    this.inTurn(async () => parseHere(line));
  }

  /** A large line's bytes: the parser starts on them at once, and the line is handled in its turn. */
  bytes(bytes: Buffer): void {
    const parsed = this.parser.parse(bytes);
    this.inTurn(() => parsed);
  }

  private inTurn(parse: () => Promise<ParsedLine>): void {
    if (this.behind++ === 0) this.events.waiting(true);
    this.tail = this.tail
      .then(parse)
      .then((line) => this.events.handle(line))
      .catch((error: unknown) => this.events.failed(error))
      .finally(() => {
        if (--this.behind === 0) this.events.waiting(false);
      });
  }
}

/** A line LineDecoder gave as text (already without its `\r`, and never blank). */
function parseHere(line: string): ParsedLine {
  try {
    return { kind: 'json', value: JSON.parse(line) };
  } catch {
    return { kind: 'invalid' };
  }
}
