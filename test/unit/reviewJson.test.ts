// A stored review's JSON, escaped a slice at a time, is exactly JSON.stringify's, whatever the
// markdown holds where a slice ends (a surrogate pair split in two, an escape, a quote).

import { currentJson, reviewJson } from '../../extension/src/review/reviewJson';
import type { StoredReview } from '../../extension/src/review/storedState';

const SLICE = 256 * 1024;

function review(markdown: string): StoredReview {
  return { revision: 7, title: 'T "quoted"', markdown, cwd: '/w', assistant: 'a', updatedAt: '2026-11-26T00:00:00.000Z', sections: [{ level: 1, title: 'x', line: 1 }] };
}

describe('reviewJson', () => {
  const awkward = [
    'x'.repeat(SLICE - 1) + '😀' + 'y'.repeat(10), // a pair split at the first slice's end
    '"\\\n\t\u0000\u001f'.repeat(SLICE / 2), // escapes on both sides of every boundary
    '\ud800'.repeat(SLICE + 3), // lone surrogates
    'é€😀\u2028'.repeat(SLICE / 3),
    'short',
  ];

  it.each(awkward.map((markdown, i) => [i, markdown]))('writes what JSON.stringify writes (%i)', async (_i, markdown) => {
    const stored = review(markdown as string);
    const json = await reviewJson(stored);
    expect(json).toBe(JSON.stringify(stored));
    expect(JSON.parse(json).markdown).toBe(markdown);
    const current = { version: 2 as const, revision: 9, current: stored };
    expect(await currentJson(current)).toBe(JSON.stringify(current));
  });

  it('writes an empty current as it is', async () => {
    expect(await currentJson({ version: 2, revision: 3, current: null })).toBe('{"version":2,"revision":3,"current":null}');
  });

  it('leaves the thread between slices of a large review', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await reviewJson(review('a\n'.repeat(5 * 1024 * 1024)));
    } finally {
      clearInterval(timer);
    }
    // Timers ran while it escaped: it was not one stretch.
    expect(ticks).toBeGreaterThan(0);
  });
});
