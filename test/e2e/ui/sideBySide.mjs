// One review shown two ways in the same window, timed alike: by Redline (present-review, from the
// call) and by VS Code's own Markdown preview of the same text written to REVIEW-*.md (from its
// command, Ctrl+Shift+V, with the file already open). Each is timed to its first heading on screen
// and to its last heading on screen (found, then scrolled to), while a second assistant calls
// get-selection every 25 ms, whose slowest answer says how long the extension host's thread was
// held: the preview renders on it, Redline in a worker.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { escapeRegExp, runCommand } from '../harness/workbench.mjs';
import { frameWithHeading, headingOnScreen } from './screenProbes.mjs';
import { RedlineSession, waitFor } from './session.mjs';
import { sizedReview } from './sizedReviews.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';

/** @typedef {{ firstMs?: number, lastMs?: number, slowestCallMs: number, calls: number, openMs?: number, deliveredMs?: number }} Shown */

/**
 * A review of `bytes` and its markers, unique to this call.
 * @param {number} bytes @param {string} label
 */
export function reviewOfSize(bytes, label) {
  const first = RedlineSession.marker(`${label}-FIRST`);
  const last = RedlineSession.marker(`${label}-LAST`);
  return { content: sizedReview(bytes, { first, last }), first, last };
}

/**
 * Runs `work` while `client` calls get-selection every 25 ms; resolves with what `work` resolved
 * with, the slowest answer and the count.
 * @template T @param {any} client @param {() => Promise<T>} work
 */
async function timedWithCalls(client, work) {
  /** @type {number[]} */
  const answers = [];
  const result = await withCalls(client, work, answers);
  return { result, slowestCallMs: Math.max(0, ...answers), calls: answers.length };
}

/** @template T @param {any} client @param {() => Promise<T>} work @param {number[]} answers */
async function withCalls(client, work, answers) {
  let working = true;
  const calling = (async () => {
    while (working) {
      const asked = performance.now();
      await client.callTool({ name: 'get-selection', arguments: {} }, { timeout: WAIT_DEADLINE_MS });
      answers.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  try {
    return await work();
  } finally {
    working = false;
    // The call in flight counts too: it waited through the end of the work.
    await calling;
  }
}

/**
 * Redline: present-review of `review` into the panel, to its first and its last heading on screen.
 * @param {RedlineSession} s @param {any} second another assistant's client
 * @param {{ content: string, first: string, last: string }} review @param {number} timeoutMs
 * @returns {Promise<Shown>}
 */
export async function shownByRedline(s, second, review, timeoutMs) {
  const frame = await s.reviewFrame({ timeoutMs: WAIT_DEADLINE_MS });
  // A new review keeps the panel's offset; the user reads from the top of the one before.
  await frame.evaluate(() => window.scrollTo(0, 0));
  const { result, slowestCallMs, calls } = await timedWithCalls(second, async () => {
    const started = performance.now();
    const since = () => performance.now() - started;
    const answered = /** @type {any} */ (s.mcp)
      .callTool(
        { name: 'present-review', arguments: { content: review.content, title: 'Side by side' } },
        { timeout: timeoutMs },
      )
      .then((/** @type {any} */ answer) => {
        if (answer.isError) throw new Error(JSON.stringify(answer.content).slice(0, 300));
        return since();
      });
    const shown = (async () => {
      await headingOnScreen(frame, review.first, { timeoutMs });
      const firstMs = since();
      await headingOnScreen(frame, review.last, { jump: true, timeoutMs });
      return { firstMs, lastMs: since() };
    })();
    const [deliveredMs, { firstMs, lastMs }] = await Promise.all([answered, shown]);
    return { deliveredMs, firstMs, lastMs };
  });
  return { ...result, slowestCallMs, calls };
}

/**
 * VS Code's Markdown preview of `review`, written to a file of the workspace and opened beside the
 * panel; closed again after, with its editor. `firstMs`/`lastMs` are undefined when the preview did
 * not show that heading within `timeoutMs`.
 * @param {RedlineSession} s @param {any} second @param {{ content: string, first: string, last: string }} review
 * @param {{ name: string, timeoutMs: number }} options
 * @returns {Promise<Shown>}
 */
export async function shownByPreview(s, second, review, { name, timeoutMs }) {
  writeFileSync(join(/** @type {string} */ (s.workspace), name), review.content);
  const opening = performance.now();
  // Redline opens it beside the panel, so the panel stays in view; a window still busy with the
  // last review may not answer at once, and the tool says to call again.
  await waitFor(
    async () => (await s.rawCall('open-location', { reference: `${name}:1` })).isError !== true,
    `open-location of ${name} to succeed`,
    WAIT_DEADLINE_MS,
  );
  await s.page
    .locator('.tabs-container .tab.active', { hasText: name })
    .waitFor({ state: 'visible', timeout: WAIT_DEADLINE_MS });
  const openMs = performance.now() - opening;
  try {
    const { result, slowestCallMs, calls } = await timedWithCalls(second, async () => {
      const started = performance.now();
      // Markdown: Open Preview, in the editor's group.
      await s.page.keyboard.press('Control+Shift+V');
      /** @type {{ firstMs?: number, lastMs?: number }} */
      const shown = {};
      try {
        const frame = await frameWithHeading(s.page, review.first, timeoutMs);
        await headingOnScreen(frame, review.first, {
          timeoutMs: Math.max(1, timeoutMs - (performance.now() - started)),
        });
        shown.firstMs = performance.now() - started;
        await headingOnScreen(frame, review.last, {
          jump: true,
          timeoutMs: Math.max(1, timeoutMs - (performance.now() - started)),
        });
        shown.lastMs = performance.now() - started;
      } catch (error) {
        if (!/Timeout|No webview showed/i.test(String(error))) throw error;
      }
      return shown;
    });
    return { ...result, openMs, slowestCallMs, calls };
  } finally {
    await closeTabs(s, [`Preview ${name}`, name]);
  }
}

/**
 * Closes the preview and its file, each by its own tab: the other editors of their group stay (an
 * earlier test's unsaved one would stop a "Close All" with VS Code's question to save it).
 * @param {RedlineSession} s @param {string[]} titles
 */
async function closeTabs(s, titles) {
  for (const title of titles) {
    const tab = s.page
      .locator('.tabs-container .tab')
      .filter({ has: s.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) });
    if ((await tab.count()) === 0) continue;
    await tab.first().click();
    await runCommand(s.page, 'View: Close Editor');
    await tab.first().waitFor({ state: 'detached' });
  }
}
