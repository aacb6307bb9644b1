// How long a user waits: from the assistant's present-review call to the text being visible
// in the panel, over 20 calls. A figure for the summary, not a pass/fail threshold.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { RedlineSession, session } from './session.mjs';

const CALLS = 20;

describe('present-review to visible text', () => {
  it(`is measured over ${CALLS} calls (median reported)`, async () => {
    const s = session();
    const frame = await s.reviewFrame();
    /** @type {number[]} */
    const samples = [];
    for (let call = 1; call <= CALLS; call++) {
      const marker = RedlineSession.marker(`TIMING-${call}`);
      const content = `# Timing run ${call}\n\n${marker}: the discount at src/example.ts:42 is not rounded.\n`;
      const started = performance.now();
      // Watching starts before the call, so the moment the text lands is not missed.
      const visible = frame.waitForFunction(
        (wanted) => document.getElementById('review')?.textContent?.includes(wanted) ?? false,
        marker,
        { polling: 'raf', timeout: 15_000 },
      );
      const [result] = await Promise.all([s.call('present-review', { content, title: 'Timing' }), visible]);
      samples.push(performance.now() - started);
      assert.equal(result.references.resolved, 1);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const median = (sorted[CALLS / 2 - 1] + sorted[CALLS / 2]) / 2;
    const figure = `median ${median.toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted[CALLS - 1].toFixed(0)} ms over ${CALLS} calls`;
    s.figures['present-review call to text visible in the webview'] = figure;
    process.stdout.write(`      present-review → visible: ${figure}\n`);
    await s.screenshot('11-timing-last');
  });

  it('is measured for a 2.4 MiB review with 70,000 references: first screen, then all of it', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    const first = RedlineSession.marker('LARGE-FIRST');
    const last = RedlineSession.marker('LARGE-LAST');
    const REFERENCES = 70_000;
    const lines = [`# Large review ${first}`, ''];
    for (let i = 0; i < REFERENCES; i++) lines.push(`- finding ${i} at src/example.ts:${(i % 60) + 1}`);
    lines.push('', `The end: ${last}`, '');
    const content = lines.join('\n');
    assert.ok(content.length >= 2.4 * 1024 * 1024, `the review is ${content.length} characters`);
    // Only the first and last blocks are read, so that polling does not itself cost seconds.
    const shows = (/** @type {'firstElementChild' | 'lastElementChild'} */ end, /** @type {string} */ marker) =>
      frame.waitForFunction(
        ([which, wanted]) => document.getElementById('review')?.[which]?.textContent?.includes(wanted) ?? false,
        [end, marker],
        { polling: 'raf', timeout: 60_000 },
      );
    const started = performance.now();
    const firstShown = shows('firstElementChild', first).then(() => performance.now() - started);
    const allShown = shows('lastElementChild', last).then(() => performance.now() - started);
    const [result, firstMs, allMs] = await Promise.all([s.call('present-review', { content, title: 'Large' }), firstShown, allShown]);
    const { resolved, broken, unchecked = 0 } = result.references;
    assert.equal(broken.length, 0, JSON.stringify(result.references));
    assert.equal(resolved + unchecked, REFERENCES, JSON.stringify(result.references));
    const figure = `first screen ${firstMs.toFixed(0)} ms, all of it ${allMs.toFixed(0)} ms (${(content.length / 1024 / 1024).toFixed(2)} MiB, ${REFERENCES} references)`;
    s.figures['2.4 MiB review: call to visible in the webview'] = figure;
    process.stdout.write(`      large review → visible: ${figure}\n`);
    await s.screenshot('11-timing-large');
    // The later suites reload the window; they test that, not how long a 2.4 MiB review takes to come back.
    const after = RedlineSession.marker('AFTER-LARGE');
    await s.call('present-review', { content: `# Back to small\n\n${after}\n`, title: 'Timing' });
    await s.waitForReviewText(after);
  });
});

