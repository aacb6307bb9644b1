// JSON with its large strings escaped a slice at a time is exactly JSON.stringify's, whatever the
// string holds where a slice ends (a surrogate pair split in two, an escape, a quote).

import { holdsLargeString, jsonInSlices } from '../../shared/jsonInSlices';
import type { StoredReview } from '../../extension/src/review/storedState';

const json = async (value: unknown) => (await jsonInSlices(value)).join('');

const SLICE = 256 * 1024;

function review(markdown: string): StoredReview {
  return {
    revision: 7,
    title: 'T "quoted"',
    markdown,
    cwd: '/w',
    assistant: 'a',
    updatedAt: '2026-11-26T00:00:00.000Z',
    sections: [{ level: 1, title: 'x', line: 1 }],
  };
}

describe('jsonInSlices', () => {
  const awkward = [
    'x'.repeat(SLICE - 1) + '😀' + 'y'.repeat(10), // a pair split at the first slice's end
    '"\\\n\t\u0000\u001f'.repeat(SLICE / 2), // escapes on both sides of every boundary
    '\ud800'.repeat(SLICE + 3), // lone surrogates
    'é€😀\u2028'.repeat(SLICE / 3),
    'short',
  ];

  it.each(awkward.map((markdown, i) => [i, markdown]))(
    'writes what JSON.stringify writes (%i)',
    async (_i, markdown) => {
      const stored = review(markdown as string);
      const text = await json(stored);
      expect(text).toBe(JSON.stringify(stored));
      expect(JSON.parse(text).markdown).toBe(markdown);
      const current = { version: 2 as const, revision: 9, current: stored };
      expect(await json(current)).toBe(JSON.stringify(current));
      // As an IPC reply would hold it, beside another large string.
      const reply = {
        type: 'response',
        id: 'x',
        result: { markdown, other: markdown.split('').reverse().join(''), n: [1, null] },
      };
      expect(await json(reply)).toBe(JSON.stringify(reply));
    },
  );

  it('writes a value without large strings in one part', async () => {
    expect(await jsonInSlices({ version: 2, revision: 3, current: null })).toEqual([
      '{"version":2,"revision":3,"current":null}',
    ]);
  });

  it('finds a large string a few levels down, and does not walk long lists', () => {
    const large = 'x'.repeat(SLICE + 1);
    expect(holdsLargeString({ type: 'response', result: { markdown: large } })).toBe(true);
    expect(holdsLargeString({ type: 'response', result: { markdown: 'small' } })).toBe(false);
    expect(holdsLargeString({ list: Array.from({ length: 100 }, () => large) })).toBe(false);
  });

  it('leaves the thread between slices of a large review', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await jsonInSlices(review('a\n'.repeat(5 * 1024 * 1024)));
    } finally {
      clearInterval(timer);
    }
    // Timers ran while it escaped: it was not one stretch.
    expect(ticks).toBeGreaterThan(0);
  });
});
