// A connection's messages, written as lines in the order they were sent, without holding the
// host's thread: a message that holds a string of megabytes (get-review of a 10 MiB review) is
// encoded a slice per task (shared/framing.ts), and every message sent meanwhile waits behind it.

import { encodeLine, encodeLineInSlices } from '../../../shared/framing';
import { holdsLargeString } from '../../../shared/jsonInSlices';

export class LineWriter {
  /** Messages still being encoded, or waiting behind one that is. */
  private waiting = 0;
  private tail: Promise<void> = Promise.resolve();

  /** `out` puts bytes on the wire; it is called in the order the messages were sent. */
  constructor(private readonly out: (bytes: string | Buffer) => void) {}

  /** Nothing is waiting to be written. */
  get idle(): boolean {
    return this.waiting === 0;
  }

  write(message: unknown): void {
    const large = holdsLargeString(message);
    if (!large && this.waiting === 0) {
      this.out(encodeLine(message));
      return;
    }
    this.waiting++;
    // Encoded only when its turn comes: until then it holds no bytes of its own (its large string
    // is the review's), so what waits here costs nothing the window's caps do not count.
    this.tail = this.tail
      .then((): Promise<Array<string | Buffer>> | string[] =>
        large ? encodeLineInSlices(message) : [encodeLine(message)],
      )
      .then((lines: Array<string | Buffer>) => {
        for (const bytes of lines) this.out(bytes);
      })
      .catch(() => undefined)
      .finally(() => this.waiting--);
  }

  /** Resolves once everything sent so far has been handed to `out`. */
  drained(): Promise<void> {
    return this.tail;
  }
}
