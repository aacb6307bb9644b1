// Review handling stays linear in the size of the review whatever whitespace an assistant sends:
// 200 KB of blank lines before a heading once blocked update-section for half a minute, because
// .replace(/\s+$/, '') restarts its scan at every whitespace character. Timings are compared as
// ratios (4× the input must cost well under 16× the time), never against absolute limits; see growth.ts.

import fc from 'fast-check';
import { compose } from '../../extension/src/review/compose';
import type { ReviewMode } from '../../shared/protocol';
import { msPerCall, syncGrowthAt4x } from './growth';

const WHITESPACE = [' ', '\n', ' \n', '\t\n', '\r\n', '\u00a0\n', '\n\n \n', ' \t \u2003'];
type Case = {
  readonly unit: string;
  readonly where: 'before-heading' | 'end-of-review' | 'in-content';
  readonly mode: ReviewMode;
};

function scenario({ unit, where, mode }: Case, padding: number): () => unknown {
  const pad = unit.repeat(Math.ceil(padding / unit.length));
  const markdown =
    where === 'before-heading'
      ? `# R\n\n## A\n\nold${pad}\n## B\n\nb\n`
      : where === 'end-of-review'
        ? `# R\n\n## A\n\nold\n${pad}`
        : '# R\n\n## A\n\nold\n';
  const content = where === 'in-content' ? `${pad}## A\n\nnew${pad}` : 'new';
  const base = { markdown, sections: [] };
  return () => compose(base, { content, mode, section: 'A' });
}

describe('review handling is linear in adversarial whitespace', () => {
  const N = 8_000;

  it('the measure tells a quadratic operation from a linear one', () => {
    const quadratic = (padding: number) => {
      const text = `x${' \n'.repeat(padding / 2)}x`;
      return () => text.replace(/\s+$/, '');
    };
    const linear = (padding: number) => {
      const text = `x${' \n'.repeat(padding / 2)}x`;
      return () => text.trimEnd();
    };
    // syncGrowthAt4x keeps the lowest of its retries, which is right for a linear cost and wrong
    // here: a burst of load on the small side could pull a quadratic ratio down. A quadratic cost is
    // measured again while it looks low, and the highest counts.
    const ratio = () => msPerCall(quadratic(16_000)) / msPerCall(quadratic(4_000));
    let quadraticRatio = ratio();
    for (let retry = 0; retry < 3 && quadraticRatio <= 9; retry++) quadraticRatio = Math.max(quadraticRatio, ratio());
    expect(quadraticRatio).toBeGreaterThan(9);
    expect(syncGrowthAt4x(linear, N)).toBeLessThan(10);
  });

  it('update-section and append grow linearly whatever the whitespace and wherever it is', () => {
    const seen: string[] = [];
    fc.assert(
      fc.property(
        fc.record({
          unit: fc.constantFrom(...WHITESPACE),
          where: fc.constantFrom('before-heading' as const, 'end-of-review' as const, 'in-content' as const),
          mode: fc.constantFrom('update-section' as const, 'append' as const),
        }),
        (c) => {
          const ratio = syncGrowthAt4x((padding) => scenario(c, padding), N);
          seen.push(`${c.mode}/${c.where}/${JSON.stringify(c.unit)}: ×${ratio.toFixed(1)}`);
          // Linear is ~4; quadratic would be ~16. Generous, for a busy 2-core machine.
          expect(ratio).toBeLessThan(10);
        },
      ),
      { seed: 7_007, numRuns: 12 },
    );
    process.stdout.write(`time at 4× whitespace (linear ≈ 4): ${seen.join(', ')}\n`);
  });

  it('200 KB of blank lines before a heading cost an update-section no more than 200 KB of text lines', () => {
    const blank = scenario({ unit: '\n', where: 'before-heading', mode: 'update-section' }, 200_000);
    const text = scenario({ unit: 'x\n', where: 'before-heading', mode: 'update-section' }, 400_000);
    const ratio = msPerCall(blank) / msPerCall(text);
    process.stdout.write(
      `update-section after 200,000 blank lines vs after 200,000 lines of text: ×${ratio.toFixed(2)}\n`,
    );
    // Same number of lines; the old regex made the blank ones thousands of times slower.
    expect(ratio).toBeLessThan(4);
  });
});
