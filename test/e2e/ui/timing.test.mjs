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
});
