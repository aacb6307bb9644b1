// The history's books: the list of earlier reviews stays newest first however its files come in,
// and taking in a folder of many files costs time in proportion to their number.

import { EarlierReviews } from '../../extension/src/review/earlierReviews';
import { syncGrowthAt4x } from './growth';

const entry = (revision: number) => ({ revision, updatedAt: '2026-11-26T00:00:00.000Z', bytes: 10 });

describe('earlier reviews', () => {
  it('lists the files newest first, in whatever order they are found', () => {
    const earlier = new EarlierReviews(200);
    for (const revision of [5, 9, 1, 7, 3]) earlier.addFile(entry(revision), `review-${revision}-0000abcd.md`);
    expect(earlier.list().map((e) => e.revision)).toEqual([9, 7, 5, 3, 1]);
    expect(earlier.fileOf(7)).toBe('review-7-0000abcd.md');
  });

  it('takes in a folder of many files in linear time', () => {
    // A folder lists newest first; sorting the whole list again for each file made this quadratic.
    const takeIn = (count: number) => () => {
      const earlier = new EarlierReviews(200);
      for (let revision = count; revision >= 1; revision--) earlier.addFile(entry(revision), 'review.md');
    };
    const ratio = syncGrowthAt4x(takeIn, 20_000);
    process.stdout.write(
      `[history] taking in 80,000 files against 20,000: ×${ratio.toFixed(1)} the time (linear ≈ 4)\n`,
    );
    expect(ratio).toBeLessThan(10);
  });

  it('trims a long list to the history size, and drops what the budget asks, in one pass each', () => {
    const earlier = new EarlierReviews(200);
    for (let revision = 1_000; revision >= 1; revision--) earlier.addFile(entry(revision), `review-${revision}.md`);
    earlier.drop(new Set([1_000, 999]));
    expect(earlier.trim()).toBe(true);
    expect(earlier.list().map((e) => e.revision)).toEqual(Array.from({ length: 200 }, (_, i) => 998 - i));
    expect(earlier.plan(String, null).remove).toHaveLength(800);
    // One pass over the list for each entry dropped once made this quadratic in the number of files.
    const takeInAndTrim = (count: number) => () => {
      const full = new EarlierReviews(200);
      for (let revision = count; revision >= 1; revision--) full.addFile(entry(revision), `review-${revision}.md`);
      full.trim();
    };
    const ratio = syncGrowthAt4x(takeInAndTrim, 20_000);
    process.stdout.write(
      `[history] taking in and trimming 80,000 files against 20,000: ×${ratio.toFixed(1)} the time (linear ≈ 4)\n`,
    );
    expect(ratio).toBeLessThan(10);
  });
});
