// A review's UTF-8 size is counted once while its call goes through the window's steps, and the
// count holds on to no text once another call comes.

import { utf8Bytes } from '../../shared/byteSize';

describe('utf8Bytes', () => {
  afterEach(() => jest.restoreAllMocks());

  it('counts a long text once, gives the exact count for an equal text, and forgets it when a short one is counted', () => {
    const count = jest.spyOn(Buffer, 'byteLength');
    const long = `# Review\n\n${'é€😀 '.repeat(40 * 1024)}`;
    const bytes = Buffer.from(long, 'utf8').length;
    expect(utf8Bytes(long)).toBe(bytes);
    expect(utf8Bytes(long)).toBe(bytes);
    expect(utf8Bytes(`${long.slice(0, -1)} `)).toBe(bytes);
    expect(count.mock.calls.filter(([text]) => text === long)).toHaveLength(1);
    expect(utf8Bytes('short é')).toBe(8);
    expect(utf8Bytes(long)).toBe(bytes);
    expect(count.mock.calls.filter(([text]) => text === long)).toHaveLength(2);
  });
});
