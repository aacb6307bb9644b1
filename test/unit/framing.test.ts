import { LineDecoder, SKIPPED_HEAD_BYTES, encodeLine } from '../../shared/framing';

function decoder(max = 64) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const d = new LineDecoder({ onLine: (l) => lines.push(l), onOverflow: (size) => overflows.push(size) }, max);
  return { d, lines, overflows };
}

describe('LineDecoder', () => {
  it('splits one chunk holding several lines', () => {
    const { d, lines } = decoder();
    d.push(Buffer.from('{"a":1}\n{"b":2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('joins a line that arrives in many chunks', () => {
    const { d, lines } = decoder();
    for (const ch of '{"hello":"world"}\n') d.push(Buffer.from(ch));
    expect(lines).toEqual(['{"hello":"world"}']);
  });

  it('decodes a multi-byte character split across chunks', () => {
    const { d, lines } = decoder();
    const bytes = Buffer.from('"é€😀"\n');
    for (let i = 0; i < bytes.length; i++) d.push(bytes.subarray(i, i + 1));
    expect(lines).toEqual(['"é€😀"']);
  });

  it('keeps an unterminated tail until its newline arrives', () => {
    const { d, lines } = decoder();
    d.push(Buffer.from('one\ntw'));
    expect(lines).toEqual(['one']);
    d.push(Buffer.from('o\n'));
    expect(lines).toEqual(['one', 'two']);
  });

  it('strips a trailing carriage return and skips blank lines', () => {
    const { d, lines } = decoder();
    d.push(Buffer.from('a\r\n\n  \r\nb\n'));
    expect(lines).toEqual(['a', 'b']);
  });

  it('accepts a line of exactly the limit and refuses one byte more', () => {
    const ok = decoder(10);
    ok.d.push(Buffer.from('x'.repeat(10) + '\n'));
    expect(ok.lines).toEqual(['x'.repeat(10)]);
    const over = decoder(10);
    over.d.push(Buffer.from('x'.repeat(11) + '\n'));
    expect(over.lines).toEqual([]);
    expect(over.overflows).toEqual([11]);
  });

  it('reports overflow as soon as an unterminated line passes the limit, then accepts nothing', () => {
    const { d, lines, overflows } = decoder(10);
    d.push(Buffer.from('x'.repeat(6)));
    d.push(Buffer.from('x'.repeat(6)));
    expect(overflows).toEqual([12]);
    d.push(Buffer.from('\nfine\n'));
    expect(lines).toEqual([]);
    expect(overflows).toHaveLength(1);
  });

  it('handles a 10 MiB line in 64 KiB chunks', () => {
    const { d, lines } = decoder(32 * 1024 * 1024);
    const big = Buffer.from(encodeLine({ content: 'r'.repeat(10 * 1024 * 1024) }));
    for (let i = 0; i < big.length; i += 65536) d.push(big.subarray(i, i + 65536));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).content).toHaveLength(10 * 1024 * 1024);
  });
});

describe('encodeLine', () => {
  it('writes one line even when strings contain newlines', () => {
    const line = encodeLine({ text: 'a\nb\r\nc\u2028' });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ text: 'a\nb\r\nc\u2028' });
  });
});

describe('LineDecoder skipping over-limit lines', () => {
  function skipper(max: number) {
    const lines: string[] = [];
    const skipped: Array<{ bytes: number; head: string }> = [];
    const d = new LineDecoder({ onLine: (l) => lines.push(l), onSkipped: (line) => skipped.push(line) }, max);
    return { d, lines, skipped };
  }

  const long = `{"id":7,"params":"${'x'.repeat(100)}"}`;
  const input = `{"id":1}\n${long}\n{"id":2}\n`;

  it('skips the long line, reports its size and head, and goes on with the next', () => {
    const { d, lines, skipped } = skipper(20);
    d.push(Buffer.from(input));
    expect(lines).toEqual(['{"id":1}', '{"id":2}']);
    expect(skipped).toEqual([{ bytes: long.length, head: long }]);
  });

  it('gives the same answer however the input is split', () => {
    const bytes = Buffer.from(input);
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (const size of [1, 3, 17]) {
        const { d, lines, skipped } = skipper(20);
        d.push(bytes.subarray(0, cut));
        for (let i = cut; i < bytes.length; i += size) d.push(bytes.subarray(i, i + size));
        expect([cut, size, lines]).toEqual([cut, size, ['{"id":1}', '{"id":2}']]);
        expect([cut, size, skipped]).toEqual([cut, size, [{ bytes: long.length, head: long }]]);
      }
    }
  });

  it('keeps no more than the head of a skipped line', () => {
    const { d, skipped } = skipper(10);
    for (let i = 0; i < 1000; i++) d.push(Buffer.alloc(1000, 0x61));
    d.push(Buffer.from('\n'));
    expect(skipped[0].bytes).toBe(1_000_000);
    expect(skipped[0].head.length).toBe(4096);
  });

  it('copies each byte of a long line a bounded number of times, however small the chunks (linear, not quadratic)', () => {
    // Counted, not timed: a decoder that joined its buffer on every chunk would copy a 16 MiB line
    // in 16 KiB chunks about 512 times over; joining once at the newline copies it once.
    const concat = jest.spyOn(Buffer, 'concat');
    try {
      const copied = (bytes: number) => {
        concat.mockClear();
        const { d, lines } = skipper(64 * 1024 * 1024);
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        for (let sent = 0; sent < bytes; sent += chunk.length) d.push(chunk);
        d.push(Buffer.from('\n'));
        expect(lines[0].length).toBe(bytes);
        return concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0);
      };
      expect(copied(16 * 1024 * 1024)).toBeLessThanOrEqual(16 * 1024 * 1024);
      // A skipped line keeps only its head, so its bytes are not copied at all beyond that.
      concat.mockClear();
      const { d } = skipper(1024);
      for (let i = 0; i < 1024; i++) d.push(Buffer.alloc(16 * 1024, 0x61));
      d.push(Buffer.from('\n'));
      const skippedCopies = concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0);
      expect(skippedCopies).toBeLessThanOrEqual(16 * SKIPPED_HEAD_BYTES);
    } finally {
      concat.mockRestore();
    }
  });
});

describe('LineDecoder handing large lines over as bytes', () => {
  function decoder(large: number) {
    const events: Array<{ text: string } | { bytes: Buffer }> = [];
    const d = new LineDecoder(
      { onLine: (text) => events.push({ text }), onLargeLine: (bytes) => events.push({ bytes }) },
      1024,
      large,
    );
    return { d, events };
  }

  it('gives a line of the threshold or more as its undecoded bytes, and shorter ones as text, in order', () => {
    const { d, events } = decoder(8);
    const long = '"é€😀xx"';
    d.push(Buffer.from(`"a"\n${long}\r\n`));
    d.push(Buffer.from('"b"\n'));
    expect(events.map((event) => ('text' in event ? event.text : event.bytes.toString('utf8')))).toEqual([
      '"a"',
      `${long}\r`,
      '"b"',
    ]);
  });

  it('gives each large line a buffer of its own, not a view of a chunk that the next line shares', () => {
    const { d, events } = decoder(4);
    const chunk = Buffer.from('"long one"\n"next"\n');
    d.push(chunk);
    const first = (events[0] as { bytes: Buffer }).bytes;
    chunk.fill(0x20);
    expect(first.toString('utf8')).toBe('"long one"');
  });

  it('sends a line in many chunks over as one, however it was split', () => {
    const { d, events } = decoder(16);
    const line = `"${'x'.repeat(100)}"`;
    for (const ch of `${line}\n`) d.push(Buffer.from(ch));
    expect(events).toHaveLength(1);
    expect((events[0] as { bytes: Buffer }).bytes.toString('utf8')).toBe(line);
  });
});
