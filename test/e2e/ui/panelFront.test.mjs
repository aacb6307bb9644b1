// The review panel and the code Redline shows beside it: after Previous Finding has put the code
// in front, one click on the panel's tab brings the panel back, with the keyboard. VS Code makes
// the panel the active editor at once but hands its page the keyboard a moment later, often after
// the extension has asked the page whether the user moved into it; the page's later answer must
// still win (extension/src/editor/editorInFront.ts).
import assert from 'node:assert/strict';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';

const EXAMPLE = 'src/example.ts';
/** Several times: whether the page's keyboard comes before or after the question varies from click to click. */
const ROUNDS = 4;

/**
 * How many times the Redline log says the user's move into the panel ended the hold on the
 * editor Redline showed.
 * @param {RedlineSession} s
 */
function movesIntoPanel(s) {
  return s.redlineLogLines().filter((line) => line.includes('the user moved into the panel')).length;
}

describe('The panel in front again after Redline showed the code', () => {
  it(`one click on the panel's tab right after Previous Finding gives it the front and the keyboard (${ROUNDS} times)`, async function () {
    const s = session();
    const marker = RedlineSession.marker('FRONT');
    const lines = [5, 10, 15];
    const content = [`# Front ${marker}`, '', ...lines.map((line) => `- **bug**: finding at ${EXAMPLE}:${line}`), ''];
    await s.call('present-review', { content: content.join('\n'), title: 'Front' });
    await s.waitForReviewText(marker);
    const tab = s.page.locator('.tabs-container .tab', { hasText: 'Review: Front' });
    const panelInFront = s.page.locator('.editor-group-container.active .tab.active', { hasText: 'Review: Front' });
    const find = s.page.locator('.simple-find-part input, .simple-find-part textarea').first();
    await runCommand(s.page, 'Redline: Show Review');
    for (let round = 0; round < ROUNDS; round++) {
      // From no finding, Previous Finding goes to the last one, then backwards, and wraps. By its
      // key, as in longPage.test.mjs: not a palette closing over the panel.
      await s.page.keyboard.press('Control+Shift+F8');
      await s.waitForCursor(lines[(lines.length - 1 - (round % lines.length) + lines.length) % lines.length]);
      assert.equal(await s.activeEditorTab(), 'example.ts');
      const before = movesIntoPanel(s);
      await tab.click();
      // Once the extension has taken the click for the user's move, nothing gives the front back.
      await waitFor(
        () => movesIntoPanel(s) > before,
        `round ${round + 1}: the Redline log to say the user moved into the panel`,
      );
      await panelInFront.waitFor({ state: 'visible' });
      await (await s.reviewFrame()).waitForFunction(() => document.hasFocus());
      // The keyboard is the panel's: Ctrl+F opens the find widget over it, not the editor's.
      await s.page.keyboard.press('Control+F');
      await find.waitFor({ state: 'visible' });
      await find.press('Escape');
      await find.waitFor({ state: 'hidden' });
      assert.equal(await s.activeEditorTab(), 'Review:Front');
    }
  });
});
