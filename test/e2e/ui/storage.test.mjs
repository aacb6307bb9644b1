// Stored reviews are untrusted input: a corrupt file on disk (current.json, review-<n>-<writer>.md) is
// moved aside with a warning in the Redline output, and the window still starts its bridge and
// shows the next review.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbenchUrl } from '../harness/workbench.mjs';
import { EXTENSION_ID } from '../packaged.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';

/** The file the store reads at activation: which review is current. */
const CURRENT_FILE = 'current.json';
/** Reviews, one file each; an earlier review's first line is read at activation too. */
const REVIEW_FILE = /^review-\d+-[0-9a-f]{8}\.md$/;
/** What issue 7 found to throw inside activate: valid JSON of the wrong shape. */
const CORRUPT_STATE = '{"history":null}';
/** And what a torn or overwritten file looks like: not JSON at all. */
const GARBAGE = '\u0000\u0000{"revision": 3, "markdown": "# cut off';

/**
 * What each folder under workspaceStorage holds: said when the window's reviews are not found.
 * @param {string} workspaceStorage
 */
function describeStorage(workspaceStorage) {
  return readdirSync(workspaceStorage)
    .map((hash) => {
      const dir = join(workspaceStorage, hash);
      const redline = existsSync(join(dir, EXTENSION_ID)) ? readdirSync(join(dir, EXTENSION_ID)).join(',') : '-';
      return `${hash}: ${readdirSync(dir).join(',')}; ${EXTENSION_ID}/ ${redline}`;
    })
    .join(' | ');
}

/**
 * Redline's review files for this window, from the window itself: at activation it says in its
 * output where its storageUri keeps them. Not found by VS Code's workspace.json, which VS Code
 * writes lazily: on a busy machine the folder holding the reviews had none yet.
 * @param {RedlineSession} s
 */
async function reviewsDirectory(s) {
  const output = await s.outputChannelText('Redline');
  const said = [...output.matchAll(/this window keeps its reviews in folder=(.+)$/gm)].map((match) => match[1].trim());
  const workspaceStorage = join(s.server.userDataDir, 'User', 'workspaceStorage');
  assert.equal(
    said.length,
    1,
    `the Redline output names the folder of this window's reviews once; it shows:\n${output}\nunder ${workspaceStorage}: ${describeStorage(workspaceStorage)}`,
  );
  const directory = said[0];
  assert.ok(directory.startsWith(workspaceStorage), `${directory} is under ${workspaceStorage}`);
  // Written by the reviews the suite presented before this test.
  await waitFor(() => existsSync(join(directory, CURRENT_FILE)), `${CURRENT_FILE} in ${directory}`, 30_000);
  return directory;
}

describe('Corrupt review state on disk', () => {
  it('is moved aside with a warning, and the bridge and panel still work', async function () {
    const s = session();
    const directory = await reviewsDirectory(s);
    assert.ok(
      existsSync(join(directory, CURRENT_FILE)),
      `${CURRENT_FILE} in ${directory}: ${readdirSync(directory).join(', ')}`,
    );
    // The UI suite presented many reviews before this one, so earlier ones are on disk.
    const onScreen = JSON.parse(readFileSync(join(directory, CURRENT_FILE), 'utf8')).current;
    const historyFile = readdirSync(directory).find((name) => REVIEW_FILE.test(name) && name !== onScreen);
    assert.ok(historyFile, `an earlier review's file in ${directory}: ${readdirSync(directory).join(', ')}`);

    // Close the window and let its extension host exit first, so that nothing it still holds in
    // memory can be written over the corrupt file before the next window reads it.
    // The window may hold an unsaved editor from an earlier suite (the pasted review): leave anyway,
    // as a user who closes it does. Unanswered, the browser's "leave page?" would stop the navigation.
    const leave = (/** @type {import('playwright-core').Dialog} */ dialog) =>
      void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss());
    s.page.on('dialog', leave);
    try {
      // Playwright can report a navigation that a beforeunload handler saw as aborted: sometimes it
      // went on, sometimes it really stopped. Whichever it was, try again until the page is gone.
      for (let attempt = 1; s.page.url() !== 'about:blank'; attempt++) {
        await s.page.goto('about:blank').catch(async (error) => {
          if (!/ERR_ABORTED/.test(String(error)) || attempt >= 3) throw error;
          await s.page.waitForURL('about:blank', { timeout: 5_000 }).catch(() => undefined);
        });
      }
    } finally {
      s.page.off('dialog', leave);
    }
    await waitFor(() => s.extensionHostPids().length === 0, "the window's extension host to exit", 60_000);
    writeFileSync(join(directory, CURRENT_FILE), CORRUPT_STATE);
    writeFileSync(join(directory, historyFile), GARBAGE);

    await s.page.goto(workbenchUrl(s.server.url, s.workspace), { waitUntil: 'load' });
    await s.page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    const movedAside = await waitFor(
      () => readdirSync(directory).find((name) => name.startsWith(`${CURRENT_FILE}.corrupt-`)),
      `${CURRENT_FILE} to be moved aside as ${CURRENT_FILE}.corrupt-<time>`,
      60_000,
    );
    assert.match(movedAside, /^current\.json\.corrupt-\S+$/);
    // History files may be checked after activation, in the background.
    await waitFor(
      () => readdirSync(directory).some((name) => name.startsWith(`${historyFile}.corrupt-`)),
      `${historyFile} to be moved aside too`,
      60_000,
    );

    // The bridge started: the assistant's MCP server, running since before, reaches it again.
    await s.waitForBridge();
    const marker = RedlineSession.marker('AFTER-CORRUPT-STATE');
    const presented = await s.call('present-review', {
      content: `# After corrupt state\n\n${marker}\n`,
      title: 'After corrupt state',
    });
    assert.ok(presented.revision > 0);
    await s.waitForReviewText(marker);
    await s.screenshot('14-after-corrupt-state');

    const output = await s.outputChannelText('Redline');
    const warnings = output.split('\n').filter((line) => /\[warning\]/i.test(line));
    for (const name of [CURRENT_FILE, historyFile]) {
      assert.ok(
        warnings.some((line) => line.includes(`${name}.corrupt-`)),
        `a warning in the Redline output that ${name} was moved aside; it shows:\n${output}`,
      );
    }
    await s.screenshot('15-redline-output-warning');
  });
});
