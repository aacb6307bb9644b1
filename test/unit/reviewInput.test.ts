// The command line's input: bounded reads from any source, and only text a review can be.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Readable } from 'stream';
import { MAX_REVIEW_BYTES } from '../../shared/protocol';
import { checkedText, readBounded, readReviewInput, ReviewInputError } from '../../mcp-server/src/reviewInput';

/** A stream that never ends, and counts what was taken from it. */
function endless(chunkBytes: number): Readable & { produced: number } {
  const stream = new Readable({
    read() {
      stream.produced += chunkBytes;
      this.push(Buffer.alloc(chunkBytes, 0x61));
    },
  }) as Readable & { produced: number };
  stream.produced = 0;
  return stream;
}

describe('reading a review for the command line', () => {
  it('stops an endless source just past the limit instead of growing without bound', async () => {
    const source = endless(64 * 1024);
    expect(await readBounded(source, 1024 * 1024)).toBe('too-large');
    // What was produced is the limit plus at most what the stream buffered ahead (its highWaterMark).
    expect(source.produced).toBeLessThan(1024 * 1024 + 4 * 64 * 1024);
    expect(source.destroyed).toBe(true);
  });

  it('refuses /dev/zero and standard input over the limit, naming the limit', async () => {
    await expect(readReviewInput('/dev/zero', Readable.from([]))).rejects.toThrow(
      '/dev/zero is larger than the 10 MiB a review may be',
    );
    const tooLarge = readReviewInput('-', endless(1024 * 1024));
    await expect(tooLarge).rejects.toBeInstanceOf(ReviewInputError);
    await expect(tooLarge).rejects.toThrow('standard input is larger than the 10 MiB a review may be');
  });

  it('takes a file of exactly the limit, and refuses one byte more', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-input-'));
    try {
      const atLimit = path.join(dir, 'at-limit.md');
      fs.writeFileSync(atLimit, Buffer.alloc(MAX_REVIEW_BYTES, 0x61));
      expect((await readReviewInput(atLimit, Readable.from([]))).length).toBe(MAX_REVIEW_BYTES);
      const over = path.join(dir, 'over.md');
      fs.writeFileSync(over, Buffer.alloc(MAX_REVIEW_BYTES + 1, 0x61));
      await expect(readReviewInput(over, Readable.from([]))).rejects.toThrow(`${over} is larger than the 10 MiB`);
      await expect(readReviewInput(dir, Readable.from([]))).rejects.toThrow(`Cannot read ${dir}: it is a folder.`);
      await expect(readReviewInput(path.join(dir, 'missing.md'), Readable.from([]))).rejects.toThrow('no such file');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('decodes UTF-8, and refuses empty, NUL-holding and undecodable bytes', () => {
    expect(checkedText(Buffer.from('# Überblick ✓'), 'r.md')).toBe('# Überblick ✓');
    expect(() => checkedText(Buffer.alloc(0), 'r.md')).toThrow('r.md is empty');
    expect(() => checkedText(Buffer.from('a\0b'), 'r.md')).toThrow('NUL byte at offset 1');
    expect(() => checkedText(Buffer.from([0xc3, 0x28]), 'r.md')).toThrow('not valid UTF-8');
  });

  it('refuses input that is only whitespace, a byte order mark, or both, and keeps a BOM-led review', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    for (const blank of [
      Buffer.from(' \n\t\r\n  '),
      bom,
      Buffer.concat([bom, Buffer.from('\n\n  \t')]),
      Buffer.from('\u00a0\u2003\n'),
    ]) {
      expect(() => checkedText(blank, 'r.md')).toThrow(
        'r.md holds only whitespace: there is no review to present, and the one shown is left as it is.',
      );
    }
    expect(checkedText(Buffer.concat([bom, Buffer.from('# Review\n')]), 'r.md')).toBe('# Review\n');
    expect(checkedText(Buffer.from('  \n# Review'), 'r.md')).toBe('  \n# Review');
  });
});
