// A review walked without the mouse, and links that follow the code, as a user meets them in
// code-server: Next Finding and its key, the panel's arrow keys and R/O with what a screen reader
// hears, and a finding and its own link opening where its code moved to. axe-core's check of the
// panel, in every finding state and theme, is contrast.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';

const EXAMPLE = 'src/example.ts';

/**
 * A click into example.ts's text: its discountFor line, or once a Ctrl+Home has scrolled that away,
 * its first line. `\s`, because the editor draws spaces as no-break spaces.
 * @param {RedlineSession} s
 */
const focusCode = (s) =>
  s.page
    .locator('.monaco-editor .view-line')
    .filter({ hasText: /export\sfunction\sdiscountFor|order-pricing\smodule/ })
    .first()
    .click();

/**
 * The cursor at the top of example.ts, from the keyboard (Ctrl+Home). Tried again when the click
 * before it has not put the keyboard in the editor yet: the webview may still hold the focus.
 * @param {RedlineSession} s
 */
async function cursorToTop(s) {
  for (let attempt = 1; ; attempt++) {
    await focusCode(s);
    await s.page.keyboard.press('Control+Home');
    try {
      return await s.waitForCursor(1, { timeoutMs: 3_000 });
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

describe('The review from the keyboard', () => {
  /** @type {any[]} */
  let findings;
  /** @type {string} */
  let marker;

  it('Redline: Next Finding goes to the first finding and then the next; its key wraps around with a notice', async function () {
    const s = session();
    marker = RedlineSession.marker('KEYBOARD');
    const content = [
      `# Keyboard ${marker}`,
      '',
      `- **bug**: an unknown coupon still gives nothing at ${EXAMPLE}:42`,
      `- nit: tax could use a helper, ${EXAMPLE}:47`,
      '',
    ].join('\n');
    ({ findings } = await s.call('present-review', { content, title: 'Keyboard' }));
    assert.equal(findings.length, 2);
    await s.waitForReviewText(marker);
    await runCommand(s.page, 'Redline: Next Finding');
    await s.waitForCursor(42);
    assert.equal(await s.activeEditorTab(), 'example.ts');
    await s.page
      .locator('.review-widget', { hasText: 'unknown coupon still gives nothing' })
      .first()
      .waitFor({ state: 'visible' });
    await runCommand(s.page, 'Redline: Next Finding');
    await s.waitForCursor(47);
    // Ctrl+F8 is its key (F8 and Alt+F8 are VS Code's problem navigation); past the last, the first.
    await s.page.keyboard.press('Control+F8');
    await s.waitForCursor(42);
    await s.page
      .locator('.notifications-toasts', { hasText: 'past the last finding, back at the first (1 of 2)' })
      .waitFor({ state: 'visible' });
    await s.page.keyboard.press('Control+Shift+F8');
    await s.waitForCursor(47);
    await s.screenshot('30-next-finding');
  });

  it('in the panel, the arrow keys move between findings, R resolves and O reopens, and a screen reader hears each', async function () {
    const s = session();
    const frame = await s.reviewFrame();
    const [first, second] = findings.map((finding) => frame.locator(`#review [data-finding="${finding.id}"]`));
    // The findings are one tab stop: the first one has it.
    assert.equal(await first.getAttribute('tabindex'), '0');
    assert.equal(await second.getAttribute('tabindex'), '-1');
    await first.focus();
    await first.press('ArrowDown');
    await waitFor(
      async () => (await second.evaluate((element) => element === document.activeElement)) || undefined,
      'the second finding to have the focus',
    );
    const cursor = (await s.call('get-review-feedback')).cursor;
    await second.press('r');
    await frame.locator('#announcer', { hasText: 'Finding 2 of 2 marked resolved.' }).waitFor({ state: 'attached' });
    await second.locator('.redline-finding-badge', { hasText: 'Resolved' }).waitFor({ state: 'visible' });
    await second.press('o');
    await frame.locator('#announcer', { hasText: 'Finding 2 of 2 reopened.' }).waitFor({ state: 'attached' });
    await second.locator('.redline-finding-actions button', { hasText: 'Resolve' }).waitFor({ state: 'visible' });
    const { items } = await s.call('get-review-feedback', { since: cursor });
    assert.deepEqual(
      items.map((/** @type {any} */ i) => [i.findingId, i.state]),
      [
        [findings[1].id, 'resolved'],
        [findings[1].id, 'open'],
      ],
    );
    // Enter shows it in the code.
    await second.press('Enter');
    await s.waitForCursor(47);
  });

  it('three lines typed above a finding make both the finding and its own link open where its code is now', async function () {
    const s = session();
    const file = join(/** @type {string} */ (s.workspace), EXAMPLE);
    const original = readFileSync(file, 'utf8');
    try {
      await runCommand(s.page, 'Redline: Next Finding');
      await s.waitForCursor(42);
      await s.page.keyboard.press('Control+Home');
      for (let i = 0; i < 3; i++) await s.page.keyboard.press('Enter');
      await waitFor(
        async () => (await s.call('get-review')).findings[0].line === 45 || undefined,
        'the finding to follow its code to line 45',
      );
      const frame = await s.reviewFrame();
      const finding = frame.locator(`#review [data-finding="${findings[0].id}"]`);
      await finding.click({ position: { x: 5, y: 5 } });
      await s.waitForCursor(45);
      await cursorToTop(s);
      // The link says src/example.ts:42, where the code was when the review was written.
      const link = finding.locator('a[data-ref]');
      assert.equal(await link.getAttribute('data-ref'), `${EXAMPLE}:42`);
      await link.click();
      await s.waitForCursor(45);
      await s.screenshot('31-link-follows-code');
      // Take the three lines out again, as the user would; auto save writes the file back as it was.
      await cursorToTop(s);
      for (let i = 0; i < 3; i++) await s.page.keyboard.press('Delete');
      await waitFor(
        async () => (await s.call('get-review')).findings[0].line === 42 || undefined,
        'the finding back at line 42',
        20_000,
      );
      await waitFor(
        () => readFileSync(file, 'utf8') === original || undefined,
        'auto save to write the file back',
        20_000,
      );
    } finally {
      if (readFileSync(file, 'utf8') !== original) writeFileSync(file, original);
    }
  });
});
