// The renderer stays linear in the size of the review on image openers (`![`) left unclosed or
// closed late. Timings are compared as ratios, never against absolute limits; see growth.ts.

import { renderReview } from '../../extension/src/render/markdownRenderer';
import { imageOpeners } from '../../bench/reviewFixtures';
import { growthAt4x } from './growth';

/** Everything is a file that does not exist: these reviews have no references. */
const resolver = { resolve: () => ({ status: 'broken' as const, reason: 'none' }) };

describe('adversarial brackets', () => {
  it.each([
    ['`![` with no `]`', (n: number) => imageOpeners(n)],
    ['`![` closed once at the end', (n: number) => `${imageOpeners(n)}]`],
    ['lines of `![` each closed once', (n: number) => `${imageOpeners(50)}]\n`.repeat(n / 50)],
  ])('takes linear time on %s (4x the input, well under 16x the time)', async (_name, make) => {
    const ratio = await growthAt4x((n) => {
      const markdown = make(n);
      return () => renderReview(markdown, resolver);
    }, 20_000);
    // Linear is ~4; quadratic would be ~16.
    expect(ratio).toBeLessThan(10);
  });
});
