import { LineDecoder, encodeLine } from '../../shared/framing';

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
