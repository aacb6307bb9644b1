// What a user sees and does with a review: it renders, its links open the right file at the
// right line, an append keeps the reading position, and Copy puts the markdown on the clipboard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';

const EXAMPLE = 'src/example.ts';

/** A review with everything the panel renders, long enough to scroll. */
export function pricingReview() {
  return [
    '# Pricing review',
    '',
    'The pricing module is small and mostly right; three things need fixing.',
    '',
    '## Findings',
    '',
    `- The discount is not rounded before tax: ${EXAMPLE}:42`,
    `- \`Order\` and \`PriceBreakdown\` allow an empty item list: ${EXAMPLE}:10-20`,
    '- `formatMoney` hard-codes the currency: `src/util.ts:3`',
    '- The old rounding helper is gone: src/missing.ts:5',
    '',
    '```ts',
    'const total = subtotal - discount + tax;',
    '```',
    '',
    '## Details',
    '',
    ...Array.from(
      { length: 40 },
      (_, index) => `Detail ${index + 1}: each of these paragraphs adds height, so that the panel has to scroll.\n`,
    ),
  ].join('\n');
}

describe('A review in the panel', () => {
  /** @type {any} */
  let presented;

  it('shows the empty state until a review arrives', async () => {
    const frame = await session().reviewFrame();
    await frame.locator('#empty', { hasText: 'Nothing has been presented yet.' }).waitFor({ state: 'visible' });
    assert.equal(await frame.locator('#copy').isDisabled(), true, 'Copy is disabled with nothing to copy');
    await session().screenshot('01-empty-panel');
  });

  it('renders a presented review: title, headings, code block, links and a broken reference', async () => {
    const s = session();
    presented = await s.call('present-review', { content: pricingReview(), title: 'Pricing review' });
    assert.equal(presented.references.total, 4);
    assert.equal(presented.references.resolved, 3);
    assert.deepEqual(
      presented.references.broken.map((broken) => broken.reference),
      ['src/missing.ts:5'],
    );

    const frame = await s.waitForReviewText('Detail 40');
    assert.equal(await frame.locator('#title').innerText(), 'Pricing review');
    assert.equal(await frame.locator('#revision').innerText(), `Revision ${presented.revision}`);
    assert.equal(await frame.locator('#review h1').innerText(), 'Pricing review');
    assert.deepEqual(await frame.locator('#review h2').allInnerTexts(), ['Findings', 'Details']);
    assert.equal(
      await frame.locator('#review pre code.language-ts').innerText(),
      'const total = subtotal - discount + tax;\n',
    );
    assert.equal(await frame.locator('#copy').isEnabled(), true);
    await s.page.locator('.tabs-container .tab', { hasText: 'Review: Pricing review' }).waitFor({ state: 'visible' });

    const links = frame.locator('#review a.redline-ref:not(.redline-broken)');
    assert.deepEqual(await links.allInnerTexts(), [`${EXAMPLE}:42`, `${EXAMPLE}:10-20`, 'src/util.ts:3']);
    const broken = frame.locator('#review a.redline-ref.redline-broken');
    assert.deepEqual(await broken.allInnerTexts(), ['src/missing.ts:5']);
    const tooltip = (await broken.getAttribute('title')) ?? '';
    assert.match(tooltip, /src\/missing\.ts/, 'the broken reference says why in its tooltip');
    // Styled differently from a working link, so that the user can tell them apart.
    const style = (/** @type {import('playwright-core').Locator} */ link) =>
      link.evaluate((element) => {
        const computed = getComputedStyle(element);
        return `${computed.color}|${computed.textDecorationLine}|${computed.textDecorationStyle}|${computed.cursor}`;
      });
    assert.notEqual(
      await style(broken),
      await style(links.first()),
      'a broken reference looks different from a working one',
    );
    await s.screenshot('02-review-rendered');
  });

  it(`opens ${EXAMPLE} at line 42 when its reference is clicked`, async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator(`#review a.redline-ref[data-ref="${EXAMPLE}:42"]`).click();
    await s.page
      .locator('.editor-group-container.active .tab.active', { hasText: 'example.ts' })
      .waitFor({ state: 'visible' });
    await s.waitForCursor(42);
    assert.equal(await s.activeEditorTab(), 'example.ts');
    assert.match(await s.cursorStatus(), /^Ln 42, Col 1\b/);
    // The panel stays open beside the file.
    assert.ok((await s.editorTabs()).includes('Review:Pricingreview'), `tabs: ${await s.editorTabs()}`);
    await s.screenshot('03-clicked-line-42');
  });

  it(`selects lines 10 to 20 when ${EXAMPLE}:10-20 is clicked`, async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator(`#review a.redline-ref[data-ref="${EXAMPLE}:10-20"]`).click();
    const lines = readFileSync(join(s.workspace, EXAMPLE), 'utf8').split('\n').slice(9, 20);
    const selectedText = lines.join('\n');
    // VS Code's own status bar: the cursor on the range's first line, and the selection's size.
    await s.waitForCursor(10, { selected: selectedText.length });
    assert.equal(await s.activeEditorTab(), 'example.ts');
    // And read back through the assistant's own tool.
    const { editor } = await s.call('get-selection');
    assert.equal(editor.relativePath, EXAMPLE);
    assert.deepEqual(
      editor.selections.map((selection) => [selection.start, selection.end]),
      [
        [
          { line: 10, column: 1 },
          { line: 20, column: lines[10].length + 1 },
        ],
      ],
    );
    assert.equal(editor.selections[0].text, selectedText);
    await s.screenshot('04-clicked-range-10-20');
  });

  it('opens nothing for a broken reference, and says why', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    const tabs = await s.editorTabs();
    await frame.locator('#review a.redline-ref.redline-broken').click();
    const toast = s.page.locator('.notifications-toasts .notification-toast', { hasText: 'src/missing.ts' });
    await toast.waitFor({ state: 'visible' });
    assert.match(await toast.innerText(), /Cannot open src\/missing\.ts:5/);
    assert.deepEqual(await s.editorTabs(), tabs, 'no editor opened or closed');
    await s.screenshot('05-clicked-broken-reference');
    await runCommand(s.page, 'Notifications: Clear All Notifications');
    await toast.waitFor({ state: 'hidden' });
  });

  it('keeps the scroll position when the assistant appends', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    // Scroll the way a user does: the mouse wheel over the panel.
    const box = await s.page.locator('iframe.webview.ready').first().boundingBox();
    assert.ok(box, 'the review webview has a box on screen');
    await s.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Smooth scrolling ends in steps; the browser's scrollend says when it has settled.
    await frame.evaluate(() => {
      /** @type {any} */ (window).redlineScrollEnd = new Promise((resolve, reject) => {
        window.addEventListener('scrollend', () => resolve(window.scrollY), { once: true });
        setTimeout(() => reject(new Error('The panel did not finish scrolling within 10 s of the wheel')), 10_000);
      });
    });
    await s.page.mouse.wheel(0, 600);
    const scrollY = await frame.evaluate(() => /** @type {any} */ (window).redlineScrollEnd);
    assert.ok(scrollY >= 300, `the wheel scrolled the panel (scrollY ${scrollY})`);
    const marker = RedlineSession.marker('APPENDED');
    const appended = await s.call('present-review', {
      content: `## Follow-up\n\n${marker}: also check src/util.ts:7`,
      mode: 'append',
    });
    assert.equal(appended.revision, presented.revision + 1);
    await s.waitForReviewText(marker);
    await frame.locator('#revision', { hasText: `Revision ${appended.revision}` }).waitFor();
    assert.equal(await frame.evaluate(() => window.scrollY), scrollY, 'the panel did not jump');
    assert.ok((await frame.locator('#review').innerText()).includes('Detail 40'), 'the earlier review is still there');
    await s.screenshot('06-append-kept-scroll');
    presented = appended;
  });

  it("copies the review's markdown: Copy, then paste into an editor", async () => {
    const s = session();
    const frame = await s.reviewFrame();
    const { markdown } = await s.call('get-review');
    await frame.locator('#copy').click();
    await frame.locator('#copy', { hasText: 'Copied' }).waitFor({ state: 'visible' });
    await s.screenshot('07-copied');

    // Paste where a user would: a new untitled editor in the file's group, not over the panel.
    await s.page.locator('.tabs-container .tab', { hasText: 'example.ts' }).first().click();
    await runCommand(s.page, 'File: New Untitled Text File');
    await s.page
      .locator('.editor-group-container.active .tab.active', { hasText: 'Untitled' })
      .waitFor({ state: 'visible' });
    await s.page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await s.page.keyboard.press('Control+V');
    // The untitled editor turns dirty once the paste lands.
    await s.page.locator('.editor-group-container.active .tab.active.dirty').waitFor({ state: 'visible' });
    await s.page.keyboard.press('Control+A');
    // The selection reaches the extension host a moment after the keypress.
    const editor = await waitFor(async () => {
      const found = (await s.call('get-selection')).editor;
      return found?.isUntitled && found.selections[0]?.isEmpty === false && found;
    }, 'get-selection to report the select-all in the untitled editor');
    assert.equal(editor.isUntitled, true);
    assert.equal(editor.selections[0].text, markdown, "the pasted text is the review's markdown");
    await s.screenshot('08-pasted');
    // Back to the file, so that the untitled editor is not in the way of later tests.
    await s.page.locator('.tabs-container .tab', { hasText: 'example.ts' }).first().click();
  });
});
