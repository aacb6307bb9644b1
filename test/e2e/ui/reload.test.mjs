// A window reload (a new extension host, the webview rebuilt from scratch) loses nothing: the
// panel comes back with the same review, and the assistant's running MCP server still reaches it.
import assert from 'node:assert/strict';
import { RedlineSession, session } from './session.mjs';

describe('After a window reload', () => {
  /** @type {any} */
  let before;

  it('the panel is restored with the same review and revision', async () => {
    const s = session();
    before = await s.call('get-review');
    assert.ok(before.revision > 0, 'a review is shown before the reload');
    const lastLine = before.markdown.trim().split('\n').pop();

    // A user reloads some time after the last review, not within its first moments: the store
    // writes workspace state 250 ms after a change, and a reload sooner than that loses the
    // change (see the e2e report). One second is well past that window.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await s.page.reload({ waitUntil: 'load' });
    await s.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    const frame = await s.reviewFrame({ timeoutMs: 60_000 });
    await s.waitForReviewText(lastLine.slice(0, 40), { timeoutMs: 30_000 });
    await frame.locator('#revision', { hasText: `Revision ${before.revision}` }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await frame.locator('#title').innerText(), before.title);
    await s.screenshot('12-after-reload');
  });

  it("the assistant's MCP server, started before the reload, reaches the new window", async () => {
    const s = session();
    const marker = RedlineSession.marker('AFTER-RELOAD');
    // The old extension host lives on for the reconnection grace time; the new one must get the call.
    const result = await s.call('present-review', { content: `# After the reload\n\n${marker}\n`, title: 'After reload' });
    assert.equal(result.revision, before.revision + 1);
    await s.waitForReviewText(marker, { timeoutMs: 15_000 });
    await s.screenshot('13-presented-after-reload');
  });
});
