// What a user sees of a long document in a webview, asked the same way of Redline's panel and of
// VS Code's Markdown preview: whether a heading holding a marker is on screen. The heading is
// looked for among the first (or last) few elements at each level of the document, so that a poll
// costs the page little however long it is, and "on screen" is its box within the viewport, which
// costs the page only the layout it needs to answer.

import { performance } from 'node:perf_hooks';

/** @typedef {import('playwright-core').Frame} Frame */

/**
 * Resolves once a heading holding `marker` is on screen in `frame`, polling every animation frame.
 * The heading is looked for near the start of the document, or with `jump` near its end, and then
 * scrolled to once it is there, as a link to it or a search would (the Markdown preview can
 * scroll a screen past its end, so pressing End would not show it).
 * @param {Frame} frame @param {string} marker
 * @param {{ jump?: boolean, timeoutMs: number }} options
 */
export function headingOnScreen(frame, marker, { jump = false, timeoutMs }) {
  return frame.waitForFunction(
    ([wanted, atEnd]) => {
      /** Elements looked at per level, from the start or the end; containers entered per level. */
      const PER_LEVEL = 8;
      const ENTERED = 2;
      const root = document.getElementById('review') ?? document.body;
      /** @param {Element} node @param {number} depth @returns {Element | undefined} */
      const find = (node, depth) => {
        let entered = 0;
        let child = atEnd ? node.lastElementChild : node.firstElementChild;
        for (
          let k = 0;
          child && k < PER_LEVEL;
          k++, child = atEnd ? child.previousElementSibling : child.nextElementSibling
        ) {
          if (/^H[1-6]$/.test(child.tagName)) {
            if (child.textContent?.includes(wanted)) return child;
            continue;
          }
          // Into what is shown (a page being taken apart is not); its style, not its layout, says so.
          if (depth < 6 && entered < ENTERED && child.firstElementChild && getComputedStyle(child).display !== 'none') {
            entered++;
            const found = find(child, depth + 1);
            if (found) return found;
          }
        }
        return undefined;
      };
      const heading = find(root, 0);
      if (!heading) return false;
      if (atEnd) heading.scrollIntoView({ block: 'center' });
      const box = heading.getBoundingClientRect();
      return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
    },
    [marker, jump],
    { polling: 'raf', timeout: timeoutMs },
  );
}

/**
 * The webview frame (Redline's panel, or a Markdown preview) whose first heading holds `marker`.
 * @param {import('playwright-core').Page} page @param {string} marker @param {number} timeoutMs
 * @returns {Promise<Frame>}
 */
export async function frameWithHeading(page, marker, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      const found = await frame
        .evaluate((wanted) => document.querySelector('h1')?.textContent?.includes(wanted) ?? false, marker)
        .catch(() => false);
      if (found) return frame;
    }
    if (Date.now() > deadline) throw new Error(`No webview showed a heading with ${marker} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A share of the renderer's main thread under which it counts as idle: the workbench's own ticks stay below. */
const IDLE_SHARE = 0.1;

/**
 * How busy the renderer's main thread is (it runs the workbench and, in code-server, the webviews)
 * over `forMs`, in windows of `windowMs`: each window's share of busy time, and how long from the
 * start until every later window stayed under IDLE_SHARE.
 * @param {import('playwright-core').Page} page @param {{ windowMs?: number, forMs?: number }} [options]
 */
export async function rendererBusy(page, { windowMs = 100, forMs = 2000 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    const taskSeconds = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
    /** @type {number[]} */
    const shares = [];
    let task = await taskSeconds();
    let at = performance.now();
    while (shares.length * windowMs < forMs) {
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const nextTask = await taskSeconds();
      const nextAt = performance.now();
      shares.push(((nextTask - task) * 1000) / (nextAt - at));
      task = nextTask;
      at = nextAt;
    }
    const lastBusy = shares.findLastIndex((share) => share > IDLE_SHARE);
    return { shares, idleAfterMs: (lastBusy + 1) * windowMs };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
