// A window reload (a new extension host, the webview rebuilt from scratch) loses nothing, even
// straight after a reply: the reply means the review is on the host's disk. The assistant's
// running MCP server reaches the new window.
import assert from 'node:assert/strict';
import { RedlineSession, session } from './session.mjs';

describe('After a window reload', () => {
  /** @type {any} */
  let presented;
  /** @type {string} */
  let marker;

  it('a review presented just before the reload is in the panel and in get-review', async () => {
    const s = session();
    marker = RedlineSession.marker('JUST-BEFORE-RELOAD');
    presented = await s.call('present-review', {
      content: `# Just before the reload\n\n${marker}\n`,
      title: 'Just before reload',
    });
    // No wait at all: a user may reload the moment the review appears.
    await s.page.reload({ waitUntil: 'load' });
    await s.page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    const frame = await s.reviewFrame();
    await s.waitForReviewText(marker);
    await frame.locator('#revision', { hasText: `Revision ${presented.revision}` }).waitFor({ state: 'visible' });
    assert.equal(await frame.locator('#title').innerText(), 'Just before reload');
    await s.screenshot('12-after-reload');

    // An old host that outlives the reload still has the review in memory; ask only the new one.
    await s.waitForOneExtensionHost();
    await s.waitForBridge();
    const review = await s.call('get-review');
    assert.equal(review.revision, presented.revision);
    assert.equal(review.title, 'Just before reload');
    assert.ok(review.markdown.includes(marker), 'get-review returns the text presented before the reload');
  });

  it("the assistant's MCP server, started before the reload, reaches the new window", async () => {
    const s = session();
    const next = RedlineSession.marker('AFTER-RELOAD');
    const result = await s.call('present-review', {
      content: `# After the reload\n\n${next}\n`,
      title: 'After reload',
    });
    assert.equal(result.revision, presented.revision + 1);
    await s.waitForReviewText(next);
    await s.screenshot('13-presented-after-reload');
  });
});
