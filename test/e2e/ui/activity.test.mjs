// Seeing the connection: the status bar says how many assistants are connected, a click on it
// opens Redline Activity, and there a call is listed with its assistant, its outcome and the
// correlation id that the assistant's MCP server wrote to its own log.
import assert from 'node:assert/strict';
import { runCommand } from '../harness/workbench.mjs';
import { session, waitFor } from './session.mjs';

const ASSISTANT = 'redline-e2e-ui';

/**
 * The id of the newest `method` request in the MCP server's stderr ("request" lines, one per call).
 * @param {string} stderr @param {string} method
 */
function loggedRequestId(stderr, method) {
  const ids = stderr
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined; // the first line of the kept tail may be cut
      }
    })
    .filter((entry) => entry?.event === 'request' && entry.method === method)
    .map((entry) => String(entry.id));
  return ids.at(-1);
}

describe('Seeing the connection', () => {
  it('the status bar shows the count of connected assistants', async () => {
    const s = session();
    await s.call('get-review');
    const item = s.page
      .locator('.statusbar-item')
      .filter({ hasText: /Redline: (\d+ connected|listening|bridge failed)/ })
      .first();
    await item.waitFor({ state: 'visible' });
    await waitFor(
      async () => (await item.innerText()).includes('Redline: 1 connected'),
      'the status bar to say "Redline: 1 connected"',
    );
    await s.screenshot('40-status-connected');
  });

  it('a click on it opens Redline Activity, which lists the call with its assistant and its correlation id', async () => {
    const s = session();
    await s.call('get-review');
    const id = await waitFor(
      () => loggedRequestId(s.mcpStderr, 'get-review'),
      'the MCP server to log its get-review request',
    );
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    await s.page
      .locator('.statusbar-item')
      .filter({ hasText: /Redline: 1 connected/ })
      .first()
      .click();
    const row = s.page
      .locator('.part.panel .monaco-list-row')
      .filter({ hasText: id.slice(0, 8) })
      .first();
    await row.waitFor({ state: 'visible' });
    const text = await row.innerText();
    assert.match(text, /get-review/);
    assert.match(text, new RegExp(`${ASSISTANT} · ok · [\\d.]+ m?s · ${id.slice(0, 8)}`));
    await s.screenshot('41-activity-view');

    // Its inline action puts the whole id on the clipboard, to grep the assistant's MCP log for.
    await row.hover();
    await row.locator('.action-label[aria-label="Copy Correlation Id"]').click();
    await waitFor(
      async () => (await s.page.evaluate(() => navigator.clipboard.readText())) === id,
      'the correlation id on the clipboard',
    );

    // The panel goes back to how the other tests expect it: hidden.
    await runCommand(s.page, 'View: Toggle Panel Visibility');
  });
});
