// The review history as the user sees it: an earlier review picked in the panel and shown
// read-only, "Back to current", "Restore as current", "Compare with previous", and the palette's
// "Redline: Open Earlier Review…".
import assert from 'node:assert/strict';
import { runCommandAndPick } from '../harness/workbench.mjs';
import { RedlineSession, session } from './session.mjs';

const EXAMPLE = 'src/example.ts';

describe('Review history', () => {
  const first = RedlineSession.marker('FIRST-PASS');
  const second = RedlineSession.marker('SECOND-PASS');
  /** @type {number} */
  let firstRevision;
  /** @type {number} */
  let secondRevision;

  it('an earlier review picked in the panel is shown read-only, without finding actions', async () => {
    const s = session();
    ({ revision: firstRevision } = await s.call('present-review', {
      title: 'First pass',
      content: [
        `# First pass ${first}`,
        '',
        `- **bug**: the loop at ${EXAMPLE}:42 never stops`,
        `- **risk**: a total can go negative at ${EXAMPLE}:20`,
        '',
      ].join('\n'),
    }));
    ({ revision: secondRevision } = await s.call('present-review', {
      title: 'Second pass',
      content: [
        `# Second pass ${second}`,
        '',
        `- **bug**: the loop at ${EXAMPLE}:42 never stops`,
        `- **question**: is ${EXAMPLE}:30 reachable?`,
        '',
      ].join('\n'),
    }));
    const frame = await s.waitForReviewText(second);
    const picker = frame.locator('#history');
    await picker.waitFor({ state: 'visible' });
    await frame.waitForFunction(
      (wanted) => [...document.querySelectorAll('#history option')].some((o) => o.getAttribute('value') === wanted),
      String(firstRevision),
    );
    await picker.selectOption(String(firstRevision));
    await s.waitForReviewText(first);
    const banner = frame.locator('#earlier');
    await banner.waitFor({ state: 'visible' });
    assert.match(
      await banner.innerText(),
      new RegExp(`Earlier review: revision ${firstRevision} “First pass”, presented .+\\. Read-only\\.`),
    );
    assert.equal(
      await frame.locator('#review .redline-finding-actions button').count(),
      0,
      'no Resolve/Accept buttons on an earlier review',
    );
    await s.page.locator('.tab', { hasText: 'Review: First pass (earlier)' }).first().waitFor({ state: 'visible' });
    // The assistant still reads the current review.
    assert.equal((await s.call('get-review')).revision, secondRevision);
    await s.screenshot('19-earlier-review');
  });

  it('"Back to current" shows the current review again, with its actions', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator('#back').click();
    await s.waitForReviewText(second);
    await frame.locator('#earlier').waitFor({ state: 'hidden' });
    await frame
      .locator('#review .redline-finding-actions button', { hasText: 'Resolve' })
      .first()
      .waitFor({ state: 'visible' });
    assert.equal(await frame.locator('#history').inputValue(), '');
  });

  it('"Restore as current" presents the earlier review again as a new revision', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator('#history').selectOption(String(firstRevision));
    await frame.locator('#earlier').waitFor({ state: 'visible' });
    await frame.locator('#restore').click();
    await frame.locator('#earlier').waitFor({ state: 'hidden' });
    const review = await s.call('get-review');
    assert.equal(review.title, 'First pass');
    assert.ok(review.revision > secondRevision, `restored as revision ${review.revision}, after ${secondRevision}`);
    assert.match(review.markdown, new RegExp(first));
    await frame.locator('#revision', { hasText: `Revision ${review.revision}` }).waitFor({ state: 'visible' });
  });

  it('"Compare with previous" lists new, fixed and still open findings, as get-review does', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator('#compare').click();
    const box = frame.locator('#comparison');
    await box.waitFor({ state: 'visible' });
    // The restored first pass against the second: the negative total is back (new), the question
    // is gone (fixed) and the loop is in both (still open).
    assert.match(
      await box.locator('h2').innerText(),
      new RegExp(`Compared with revision ${secondRevision} “Second pass”`),
    );
    assert.deepEqual(await box.locator('h3').allInnerTexts(), [
      'New (1)',
      'Fixed (1)',
      'Still open (1)',
      'Won’t fix (0)',
    ]);
    assert.match(await box.innerText(), /a total can go negative/);
    assert.match(await box.innerText(), /is src\/example\.ts:30 reachable\? \(gone\)/);
    const { comparison } = await s.call('get-review', { compareWithPrevious: true });
    assert.deepEqual([comparison.new.length, comparison.fixed.length, comparison.stillOpen.length], [1, 1, 1]);
    await s.screenshot('20-compare-with-previous');
    await box.locator('.redline-comparison-close').click();
    await box.waitFor({ state: 'hidden' });
  });

  it('"Redline: Open Earlier Review…" lists earlier reviews and opens the one picked', async () => {
    const s = session();
    await runCommandAndPick(s.page, 'Redline: Open Earlier Review…', {
      hasText: new RegExp(`Second pass.*revision ${secondRevision}`, 's'),
    });
    await s.waitForReviewText(second);
    const frame = await s.reviewFrame();
    await frame.locator('#earlier', { hasText: `revision ${secondRevision}` }).waitFor({ state: 'visible' });
    await frame.locator('#back').click();
    await frame.locator('#earlier').waitFor({ state: 'hidden' });
  });
});
