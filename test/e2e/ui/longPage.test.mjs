// A long review in the panel, which lays out only the blocks near the screen: what is far below
// is still found by the find widget, a finding there is still shown by Previous Finding, and a
// panel hidden and shown again opens at the block it was on, though the blocks above it were
// never laid out in the new document.
import assert from 'node:assert/strict';
import { openFile, runCommand } from '../harness/workbench.mjs';
import { headingOnScreen } from './screenProbes.mjs';
import { session, waitFor } from './session.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';
import { reviewOfSize } from './sideBySide.mjs';
import { REVIEW_SIZES } from './sizedReviews.mjs';

/** @typedef {import('playwright-core').Frame} Frame */

/** Whether the browser has laid out the element: false while its group is left out (content-visibility). */
const laidOut = (/** @type {Element} */ element) => element.checkVisibility({ contentVisibilityAuto: true });

/**
 * Whether the review panel is (or, within `timeout`, becomes) the active editor of the active group.
 * @param {import('./session.mjs').RedlineSession} s @param {number} [timeout]
 */
async function panelActive(s, timeout = 2000) {
  return s.page
    .locator('.editor-group-container.active .tab.active', { hasText: 'Review: Long' })
    .waitFor({ timeout })
    .then(
      () => true,
      () => false,
    );
}

describe('A long review, laid out only near the screen', () => {
  /** @type {{ content: string, first: string, last: string }} */
  let review;
  /** @type {any[]} */
  let findings;

  /** @type {import('./session.mjs').RedlineSession} */
  let s;

  before(async function () {
    s = session();
    review = reviewOfSize(REVIEW_SIZES['1 MiB'], 'LONG');
    const result = await /** @type {any} */ (s.mcp).callTool(
      { name: 'present-review', arguments: { content: review.content, title: 'Long' } },
      { timeout: WAIT_DEADLINE_MS },
    );
    assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 300));
    ({ findings } = result.structuredContent);
    const frame = await s.reviewFrame();
    await headingOnScreen(frame, review.first, { timeoutMs: WAIT_DEADLINE_MS });
    // The whole page is in the panel, its end not laid out.
    await frame.waitForFunction(
      (marker) => {
        const heading = [...document.querySelectorAll('#review .redline-page h2')].pop();
        return heading?.textContent?.includes(marker) && !heading.checkVisibility({ contentVisibilityAuto: true });
      },
      review.last,
      { timeout: WAIT_DEADLINE_MS },
    );
  });

  it('finds text far below the screen with the find widget, and shows it', async function () {
    // An earlier test's file may be in front of the panel in its group.
    await runCommand(s.page, 'Redline: Show Review');
    const frame = await s.reviewFrame();
    const input = s.page.locator('.simple-find-part input, .simple-find-part textarea').first();
    // A click in the review makes the panel the active editor once VS Code hears of the webview's
    // focus (it polls for it); a Ctrl+F before that goes elsewhere, as a person's would, and a
    // person presses it again. So: click, wait for the panel, press, until the widget is there.
    await waitFor(async () => {
      // Its first heading: the header's title gives way to the history's picker in a narrow panel.
      await frame.locator('#review h1').first().click();
      if (!(await panelActive(s))) return false;
      await s.page.keyboard.press('Control+F');
      return input.waitFor({ state: 'visible', timeout: 2000 }).then(
        () => true,
        () => false,
      );
    }, 'the find widget over the panel after a click in it and Ctrl+F');
    try {
      await input.fill(review.last);
      await input.press('Enter');
      await frame.waitForFunction((marker) => {
        const found = getSelection()?.anchorNode?.parentElement?.closest('h2');
        if (!found?.textContent?.includes(marker)) return false;
        const box = found.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      }, review.last);
      await s.screenshot('long-01-found-below');
    } finally {
      // The find widget goes, whatever happened: later tests type into the window.
      await input.press('Escape');
      await input.waitFor({ state: 'hidden' });
    }
  });

  it('shows a finding far below with Previous Finding', async function () {
    const frame = await s.reviewFrame();
    await frame.evaluate(() => window.scrollTo(0, 0));
    const last = findings[findings.length - 1];
    const selector = `#review [data-finding="${last.id}"]`;
    assert.equal(await frame.locator(selector).evaluate(laidOut), false, 'the last finding is not laid out yet');
    // From no finding yet, Previous Finding goes to the last one, opens its code and points it out in the panel.
    // By its key: a palette closing over the panel hands the panel the focus back, and VS Code's late
    // report of that focus can put the panel's tab in front while the keyboard is in the code
    // (docs/reviews.md), with no line in the status bar until a key moves the cursor.
    await s.page.keyboard.press('Control+Shift+F8');
    await s.waitForCursor(last.line);
    await (
      await s.reviewFrame()
    ).waitForFunction((wanted) => {
      const box = document.querySelector(wanted)?.getBoundingClientRect();
      return box !== undefined && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
    }, selector);
    await s.screenshot('long-02-previous-finding');
  });

  it('opens where it was after the panel was hidden and shown again', async function () {
    let frame = await s.reviewFrame();
    // A heading half-way down, at the top of the panel's review.
    const line = await frame.evaluate(async () => {
      const headings = document.querySelectorAll('#review .redline-page h2');
      const heading = /** @type {HTMLElement} */ (headings[Math.floor(headings.length / 2)]);
      const ended = new Promise((resolve) => window.addEventListener('scrollend', resolve, { once: true }));
      heading.scrollIntoView({ block: 'center' });
      await ended;
      return Number(heading.dataset.line);
    });
    const top = await frame.evaluate(
      (at) => document.querySelector(`#review h2[data-line="${at}"]`)?.getBoundingClientRect().top,
      line,
    );
    // Another file in the panel's group hides it, and its document goes; the command brings it back.
    // First the panel goes to the front: a click on its tab, right after Previous Finding showed the code.
    await s.page.locator('.tabs-container .tab', { hasText: 'Review: Long' }).click();
    assert.ok(await panelActive(s, WAIT_DEADLINE_MS), 'the panel in front after a click on its tab');
    // VS Code hands the page the keyboard a moment after the tab is active, through the webview's
    // own frames; Quick Open opened before that lands loses the focus to it and closes.
    await frame.waitForFunction(() => document.hasFocus());
    await openFile(s.page, 'docs/notes.md');
    await waitFor(() => frame.isDetached(), "the hidden panel's document to go");
    await runCommand(s.page, 'Redline: Show Review');
    frame = await s.reviewFrame();
    await frame.waitForFunction(
      ([at, was]) => {
        const heading = document.querySelector(`#review h2[data-line="${at}"]`);
        const box = heading?.getBoundingClientRect();
        return box !== undefined && box.height > 0 && Math.abs(box.top - was) < 2;
      },
      [line, top],
      { polling: 100 },
    );
    await s.screenshot('long-03-reopened-in-place');
  });
});
