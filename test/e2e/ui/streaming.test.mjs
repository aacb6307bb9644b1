// A large review in the panel: its page arrives slice by slice while the window renders it, and
// ends complete, in order and once; a small review after it replaces it, and the old page leaves
// the panel's document.
import assert from 'node:assert/strict';
import { session } from './session.mjs';

const ITEMS = 12_000;
const LAST_LINE = 'The end of the dense review.';

/** One reference per list item, larger than a present-review that is rendered before it is shown. */
function denseReview() {
  const lines = ['# Every call site', ''];
  for (let i = 0; i < ITEMS; i++) lines.push(`- src/example.ts:${(i % 40) + 1} call ${i}`);
  lines.push('', LAST_LINE, '');
  return lines.join('\n');
}

describe('A large review streaming into the panel', () => {
  it('ends with every item in order, once, under its title and revision', async () => {
    const s = session();
    const presented = await s.call('present-review', { content: denseReview(), title: 'Dense' });
    assert.equal(presented.references.total, ITEMS);
    const frame = await s.waitForReviewText(LAST_LINE);
    const page = await frame.evaluate(() => {
      const items = [...document.querySelectorAll('#review .redline-page li')];
      return {
        items: items.length,
        // A finding's text, without the buttons the panel adds to the first thousand.
        first: items[0]?.firstChild?.textContent + (items[0]?.firstChild?.nextSibling?.textContent ?? ''),
        last: items[items.length - 1]?.textContent,
        pages: document.querySelectorAll('#review .redline-page').length,
        headings: [...document.querySelectorAll('#review h1')].map((heading) => heading.textContent),
      };
    });
    assert.deepEqual(page, {
      items: ITEMS,
      first: 'src/example.ts:1 call 0',
      last: `src/example.ts:${((ITEMS - 1) % 40) + 1} call ${ITEMS - 1}`,
      pages: 1,
      headings: ['Every call site'],
    });
    assert.equal(await frame.locator('#revision').innerText(), `Revision ${presented.revision}`);
    await s.screenshot('streaming-01-dense-review');
  });

  it('shows a small review after it, and takes the large page out of the document', async () => {
    const s = session();
    await s.call('present-review', { content: '# Small after large\n\nOne line.', title: 'Small' });
    const frame = await s.waitForReviewText('Small after large');
    await frame.waitForFunction(
      () => document.querySelectorAll('#review li, #review .redline-page-retired').length === 0,
      undefined,
      { polling: 'raf' },
    );
    assert.deepEqual(await frame.locator('#review h1').allInnerTexts(), ['Small after large']);
    await s.screenshot('streaming-02-small-after-large');
  });
});
