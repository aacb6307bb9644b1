// A connection's lines go out whole and in the order they were sent, a reply holding megabytes
// included, and the thread is let go while that reply is encoded.

import { encodeLine } from '../../shared/framing';
import { LineWriter } from '../../extension/src/ipc/lineWriter';

const big = (char: string) => `${char}"\n😀`.repeat(1024 * 1024);

describe('LineWriter', () => {
  it('writes small lines at once, as they are sent', () => {
    const out: string[] = [];
    const writer = new LineWriter((bytes) => out.push(bytes.toString()));
    writer.write({ type: 'event', n: 1 });
    expect(out).toEqual([encodeLine({ type: 'event', n: 1 })]);
    expect(writer.idle).toBe(true);
  });

  it('keeps the order of what is sent behind a large line, and writes each line whole', async () => {
    const chunks: Array<{ line: number; bytes: string }> = [];
    let line = 0;
    const writer = new LineWriter((bytes) => {
      const text = bytes.toString();
      chunks.push({ line, bytes: text });
      if (text.endsWith('\n')) line++;
    });
    const messages = [
      { type: 'progress', id: 'a' },
      { type: 'response', id: 'a', result: { markdown: big('a') } },
      { type: 'event', event: 'review-changed' },
      { type: 'response', id: 'b', result: { markdown: big('b'), other: big('c') } },
      { type: 'response', id: 'c', result: {} },
    ];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    for (const message of messages) writer.write(message);
    expect(writer.idle).toBe(false);
    await writer.drained();
    clearInterval(timer);
    expect(writer.idle).toBe(true);
    const lines = messages.map((_, index) =>
      chunks
        .filter((chunk) => chunk.line === index)
        .map((chunk) => chunk.bytes)
        .join(''),
    );
    expect(lines).toEqual(messages.map((message) => encodeLine(message)));
    // The thread was let go while the large lines were encoded.
    expect(ticks).toBeGreaterThan(0);
  });
});
