// How long a user waits, in the webview: from the assistant's present-review call to what the user
// sees (a small review's text on screen; a large review's first screen, its last heading on
// screen, and the panel's CPU after), with a second assistant calling meanwhile; then the same
// reviews side by side with VS Code's own Markdown preview of the same text (sideBySide.mjs).
// Figures for the performance tables (performanceFigures.mjs prints them and writes
// test-artifacts/e2e-ui-performance.json), not pass/fail thresholds: the tests assert only that
// each review arrives, whole. REDLINE_E2E_TIMING=full runs the side-by-side three times and adds
// the preview of 10 MiB, which takes minutes.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { runCommand } from '../harness/workbench.mjs';
import { markdownItFloor, median, printAndWrite, record, recordSideBySide } from './performanceFigures.mjs';
import { headingOnScreen, rendererBusy } from './screenProbes.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';
import { reviewOfSize, shownByPreview, shownByRedline } from './sideBySide.mjs';
import { REVIEW_SIZES, sizedReview } from './sizedReviews.mjs';

const SMALL_CALLS = 20;
/** A large review's calls and waits: generous, for a busy 2-core machine. */
const LARGE_TIMEOUT_MS = WAIT_DEADLINE_MS;
const FULL = process.env.REDLINE_E2E_TIMING === 'full';
/** Rounds of the side-by-side, each Redline then the preview, or the preview then Redline. */
const SIDE_BY_SIDE_ROUNDS = FULL ? 3 : 1;
/** How long the preview of each size gets to show its last heading. */
const PREVIEW_TIMEOUT_MS = FULL ? 300_000 : 120_000;

/** @typedef {import('playwright-core').Frame} Frame */

/**
 * Resolves once a block holding `marker` among the review's first few is on screen (laid out,
 * with a size), or with `end: 'last'`, once its last block holds `marker`. Only blocks at either
 * end are read, through any wrappers (a slice, a chunk), so that polling a 10 MiB page costs little.
 * @param {Frame} frame @param {string} marker @param {{ end?: 'first' | 'last', timeoutMs?: number }} [options]
 */
function shows(frame, marker, { end = 'first', timeoutMs = LARGE_TIMEOUT_MS } = {}) {
  return frame.waitForFunction(
    ([wanted, which]) => {
      const review = document.getElementById('review');
      if (!review) return false;
      const BLOCK = 'p, li, h1, h2, h3, h4, pre, td, blockquote';
      if (which === 'last') {
        /** The last block under `from`, through its wrappers. @param {Element | null | undefined} from */
        const lastBlock = (from) => {
          let block = from?.lastElementChild;
          while (block?.lastElementChild && !block.matches(BLOCK)) block = block.lastElementChild;
          return block;
        };
        // The review's blocks are #review's children, or a page's that comes first in #review
        // (and may have old pages, hidden, after it): either holds the marker only once it is in.
        return [lastBlock(review), lastBlock(review.firstElementChild)].some(
          (block) => block?.textContent?.includes(wanted) ?? false,
        );
      }
      // The first dozen elements in document order: the heading, the first list and its first items.
      const walker = document.createTreeWalker(review, NodeFilter.SHOW_ELEMENT);
      for (let node = walker.nextNode(), seen = 0; node && seen < 12; node = walker.nextNode(), seen++) {
        const block = /** @type {Element} */ (node);
        if (!block.matches(BLOCK) || !block.textContent?.includes(wanted)) continue;
        const box = block.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.top < window.innerHeight;
      }
      return false;
    },
    [marker, end],
    { polling: 'raf', timeout: timeoutMs },
  );
}

/**
 * `SMALL_CALLS` small reviews, one after the other: call → its text on screen, each.
 * @param {string} label
 */
async function smallReviewsVisible(label) {
  const s = session();
  const frame = await s.reviewFrame();
  /** @type {number[]} */
  const samples = [];
  for (let call = 1; call <= SMALL_CALLS; call++) {
    const marker = RedlineSession.marker(`${label}-${call}`);
    const content = `# Timing ${marker}\n\n- **bug**: the discount at src/example.ts:42 is not rounded.\n`;
    const started = performance.now();
    // Watching starts before the call, so the moment the text lands is not missed.
    // Right after a large review the panel may be laying out a slice of it first: on a busy
    // machine that took tens of seconds, hence the large review's waits.
    const visible = shows(frame, marker);
    const [result] = await Promise.all([presentPatiently(content, 'Timing'), visible]);
    samples.push(performance.now() - started);
    assert.equal(result.references.resolved, 1);
  }
  return samples;
}

/** present-review with room for a large review, or a panel busy with one, on a busy machine. @param {string} content @param {string} title */
async function presentPatiently(content, title) {
  const result = await /** @type {any} */ (session().mcp).callTool(
    { name: 'present-review', arguments: { content, title } },
    { timeout: LARGE_TIMEOUT_MS },
  );
  assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 500));
  return result.structuredContent;
}

describe('present-review to visible text', () => {
  after(() => printAndWrite(process.env.REDLINE_E2E_VSIX));

  it(`is measured for a small review on a fresh panel, over ${SMALL_CALLS} calls`, async function () {
    const s = session();
    // A panel of its own: closed (it is the active editor once shown) and opened again.
    await runCommand(s.page, 'Redline: Show Review');
    // "Review: <title>", or "Redline Review" before the first.
    await waitFor(
      async () => (await s.activeEditorTab()).includes('Review'),
      'the review panel to be the active editor',
    );
    const old = await s.reviewFrame();
    await runCommand(s.page, 'View: Close Editor');
    await waitFor(() => old.isDetached(), 'the review panel to close');
    await runCommand(s.page, 'Redline: Show Review');
    await s.reviewFrame();
    const samples = await smallReviewsVisible('FRESH');
    record('smallFreshPanel', {
      measure: `small review, call → visible, fresh panel, median of ${SMALL_CALLS}`,
      samples,
    });
    s.figures['present-review call to text visible in the webview (fresh panel)'] =
      `median ${median(samples).toFixed(0)} ms over ${SMALL_CALLS} calls`;
    await s.screenshot('11-timing-last');
  });

  it('is measured for a 2.4 MiB review with 70,000 references: first screen, then all of it', async function () {
    const s = session();
    const frame = await s.reviewFrame();
    const first = RedlineSession.marker('LARGE-FIRST');
    const last = RedlineSession.marker('LARGE-LAST');
    const REFERENCES = 70_000;
    const lines = ['# Large review', ''];
    for (let i = 0; i < REFERENCES; i++)
      lines.push(`- finding ${i} at src/example.ts:${(i % 60) + 1}${i === 0 ? ` ${first}` : ''}`);
    lines.push('', `The end: ${last}`, '');
    const content = lines.join('\n');
    assert.ok(content.length >= 2.4 * 1024 * 1024, `the review is ${content.length} characters`);
    const started = performance.now();
    const firstShown = shows(frame, first).then(() => performance.now() - started);
    const allShown = shows(frame, last, { end: 'last' }).then(() => performance.now() - started);
    const delivered = presentPatiently(content, 'Large').then((result) => ({
      result,
      ms: performance.now() - started,
    }));
    const [{ result, ms: deliveredMs }, firstMs, allMs] = await Promise.all([delivered, firstShown, allShown]);
    const { resolved, broken, unchecked = 0 } = result.references;
    assert.equal(broken.length, 0, JSON.stringify(result.references));
    assert.equal(resolved + unchecked, REFERENCES, JSON.stringify(result.references));
    const floorMs = markdownItFloor(content);
    const size = `${(content.length / 1024 / 1024).toFixed(2)} MiB`;
    record('largeFirstScreen', { measure: `${size} / 70,000 references: first screen`, ms: firstMs, floorMs });
    record('largeAll', { measure: `${size} / 70,000 references: all of it in the page`, ms: allMs, floorMs });
    record('largeDelivered', {
      measure: `${size} / 70,000 references: delivered (call → answer)`,
      ms: deliveredMs,
      floorMs,
    });
    s.figures['2.4 MiB review: call to visible in the webview'] =
      `first screen ${firstMs.toFixed(0)} ms, all of it ${allMs.toFixed(0)} ms`;
    await s.screenshot('11-timing-large');
  });

  it('is measured around a 10 MiB review: delivered, its first screen, its last heading, the panel after, and a second assistant meanwhile', async function () {
    const s = session();
    const frame = await s.reviewFrame();
    const second = await s.connectAssistant('redline-e2e-timing-second');
    try {
      const first = RedlineSession.marker('TEN-FIRST');
      const last = RedlineSession.marker('TEN-LAST');
      const content = sizedReview(REVIEW_SIZES['10 MiB'], { first, last });
      const started = performance.now();
      const firstShown = shows(frame, first).then(() => performance.now() - started);
      // Once the first screen is there, the user goes to the end.
      const lastShown = firstShown
        .then(() => headingOnScreen(frame, last, { jump: true, timeoutMs: LARGE_TIMEOUT_MS * 2 }))
        .then(() => performance.now() - started);
      let presenting = true;
      const present = presentPatiently(content, 'Ten MiB').then((result) => ({
        result,
        ms: performance.now() - started,
      }));
      const presented = present.finally(() => (presenting = false));
      // A second assistant's cheap call every 25 ms for as long as the large present takes.
      /** @type {number[]} */
      const answers = [];
      while (presenting) {
        const asked = performance.now();
        const result = await second.callTool({ name: 'get-selection', arguments: {} });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        answers.push(performance.now() - asked);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const [{ result, ms: deliveredMs }, firstMs, lastMs] = await Promise.all([presented, firstShown, lastShown]);
      assert.equal(result.references.broken.length, 0);
      // The panel's CPU once the review is on screen, then the end again from the top.
      const busy = await rendererBusy(s.page);
      await frame.evaluate(() => window.scrollTo(0, 0));
      await shows(frame, first);
      const jumped = performance.now();
      await headingOnScreen(frame, last, { jump: true, timeoutMs: LARGE_TIMEOUT_MS });
      const jumpMs = performance.now() - jumped;
      const floorMs = markdownItFloor(content);
      const size = `${(Buffer.byteLength(content) / 1024 / 1024).toFixed(2)} MiB`;
      record('tenMiBDelivered', {
        measure: `${size} of findings: delivered (call → answer)`,
        ms: deliveredMs,
        floorMs,
      });
      record('tenMiBFirstScreen', { measure: `${size}: first screen`, ms: firstMs });
      record('tenMiBLastHeading', { measure: `${size}: call → its last heading on screen`, ms: lastMs, floorMs });
      record('tenMiBJump', {
        measure: `${size}: from the top, its last heading on screen after a jump to it`,
        ms: jumpMs,
      });
      record('tenMiBIdle', {
        measure: `${size}: the panel's renderer once the review is on screen, busy until`,
        ms: busy.idleAfterMs,
        detail: `busy ${busy.shares.map((share) => Math.round(share * 100)).join(' ')} % per 100 ms`,
      });
      const slowest = Math.max(...answers);
      record('secondAssistantSlowest', {
        measure: "a second assistant's slowest get-selection (one every 25 ms) during the 10 MiB present",
        ms: slowest,
        detail: `median ${median(answers).toFixed(0)} ms over ${answers.length} calls`,
      });
      s.figures["a second assistant's get-selection every 25 ms during a 10 MiB present"] =
        `slowest ${slowest.toFixed(0)} ms over ${answers.length} calls`;
      s.figures['10 MiB review'] =
        `delivered ${(deliveredMs / 1000).toFixed(2)} s, last heading on screen ${(lastMs / 1000).toFixed(2)} s ` +
        `(markdown-it alone: ${(floorMs / 1000).toFixed(2)} s)`;
    } finally {
      await second.close();
    }
  });

  it(`is measured for a small review right after the large reviews, over ${SMALL_CALLS} calls`, async function () {
    const samples = await smallReviewsVisible('AFTER-LARGE');
    record('smallAfterLarge', {
      measure: `small review, call → visible, right after the large reviews, median of ${SMALL_CALLS}`,
      samples,
    });
    record('nextAfterLarge', {
      measure: 'the first of those: the next review after the 10 MiB one, call → visible',
      ms: samples[0],
    });
    session().figures['present-review call to text visible, right after the large reviews'] =
      `median ${median(samples).toFixed(0)} ms, first ${samples[0].toFixed(0)} ms`;
  });

  it(`is measured side by side with VS Code's Markdown preview of the same text, ${SIDE_BY_SIDE_ROUNDS} round(s) per size`, async function () {
    const sizes = Object.entries(REVIEW_SIZES).filter(([size]) => size !== '10 MiB');
    this.timeout(
      (LARGE_TIMEOUT_MS + PREVIEW_TIMEOUT_MS * 2) * sizes.length * SIDE_BY_SIDE_ROUNDS +
        (FULL ? 2 * PREVIEW_TIMEOUT_MS : 0),
    );
    const s = session();
    const second = await s.connectAssistant('redline-e2e-side-by-side');
    try {
      for (const [size, bytes] of FULL ? Object.entries(REVIEW_SIZES) : sizes) {
        for (let round = 1; round <= SIDE_BY_SIDE_ROUNDS; round++) {
          // Alternated: Redline first in odd rounds, the preview first in even ones.
          const order = round % 2 ? ['redline', 'preview'] : ['preview', 'redline'];
          for (const which of order) {
            const review = reviewOfSize(bytes, `SIDE-${which}`);
            if (which === 'redline') {
              const shown = await shownByRedline(s, second, review, LARGE_TIMEOUT_MS);
              assert.ok(shown.lastMs !== undefined, `Redline showed the ${size} review's last heading`);
              recordSideBySide(size, { redline: [shown], floorMs: [markdownItFloor(review.content)] });
            } else {
              const name = `REVIEW-${size.replace(' ', '')}-${round}.md`;
              const shown = await shownByPreview(s, second, review, { name, timeoutMs: PREVIEW_TIMEOUT_MS });
              recordSideBySide(size, { preview: [shown], previewTimeoutMs: PREVIEW_TIMEOUT_MS });
            }
          }
        }
      }
      // The preview's group is gone, and the panel is still there.
      await s.reviewFrame({ timeoutMs: WAIT_DEADLINE_MS });
    } finally {
      await second.close();
    }
  });
});
