// The bridge's large lines are parsed in a worker thread, with the same answers as on this thread,
// and none is lost when the worker cannot answer.

import { OffThreadLineParser, parseLineHere } from '../../extension/src/ipc/lineParser';

describe('OffThreadLineParser', () => {
  let parser: OffThreadLineParser;
  beforeEach(() => (parser = new OffThreadLineParser()));
  afterEach(() => parser.dispose());

  it('parses in its worker, as LineDecoder would trim: JSON, a trailing \\r, blank lines and lines that are not JSON', async () => {
    const lines = ['{"type":"request","content":"é€😀"}\r', '   \r', '{"broken":', '[1,2,3]'];
    const parsed = await Promise.all(lines.map((line) => parser.parse(Buffer.from(line))));
    expect(parsed).toEqual([
      { kind: 'json', value: { type: 'request', content: 'é€😀' } },
      { kind: 'blank' },
      { kind: 'invalid' },
      { kind: 'json', value: [1, 2, 3] },
    ]);
    expect(parsed).toEqual(lines.map((line) => parseLineHere(Buffer.from(line))));
    expect(parser.parsedOffThread).toBe(4);
  });

  it('answers every line in flight when it is disposed, parsing them here', async () => {
    const line = Buffer.from(JSON.stringify({ content: 'x'.repeat(4 * 1024 * 1024) }));
    const inFlight = parser.parse(line);
    // Before the worker has gone: the line is answered from here as soon as dispose() begins.
    const disposed = parser.dispose();
    await expect(inFlight).resolves.toEqual({ kind: 'json', value: { content: 'x'.repeat(4 * 1024 * 1024) } });
    await expect(parser.parse(Buffer.from('{"after":true}'))).resolves.toEqual({
      kind: 'json',
      value: { after: true },
    });
    expect(parser.parsedOffThread).toBe(0);
    await disposed;
  });
});
