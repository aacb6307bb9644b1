// Contrast in every state a finding can be in, as the user leaves it: one review with every
// severity, its findings resolved, accepted and declined from the panel, its code edited in the
// editor (lines moved, code changed), more than 100 findings, a suggestion, a broken reference, the
// comparison with the previous review, the history picker and the panel's notices; axe-core checks
// it, and an earlier review under its banner, in this VS Code's default themes (Light 2026, Dark
// 2026), Light Modern, Dark Modern and both high-contrast themes.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';

const EXAMPLE = 'src/example.ts';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/**
 * The themes VS Code ships that decide a panel's contrast: the defaults (Light 2026 and Dark 2026
 * in this VS Code), the Modern pair, and both high-contrast themes.
 */
const THEMES = ['Light 2026', 'Dark 2026', 'Light Modern', 'Dark Modern', 'Light High Contrast', 'Dark High Contrast'];
/** Findings past this many have no comment thread (findingThreads.ts's MAX_THREADS). */
const THREADED = 100;
/** Lines typed at the top of example.ts, which move every finding in it. */
const TYPED_LINES = 3;
/** The line the "code changed" findings point at, which the user edits. */
const EDITED_LINE = 24;

/**
 * Switches the colour theme from the palette, and waits until the panel has it.
 * @param {RedlineSession} s @param {string} name as the picker lists it, e.g. 'Dark Modern'
 */
async function useTheme(s, name) {
  await runCommand(s.page, 'Preferences: Color Theme', { opensPicker: true });
  await s.page.keyboard.type(name);
  await s.page.keyboard.press('Enter');
  // By name, not kind: two light themes in a row have the same kind before the switch as after it.
  await waitFor(async () => (await themeOf(s)) === name || undefined, `the panel in ${name}`, 20_000);
}

/**
 * The cursor at the top of example.ts from the keyboard, after a click on a line in view: the
 * thread Next Finding opens beside the lines can take the keyboard.
 * @param {RedlineSession} s @param {string} lineText text of a line in view
 */
async function cursorToTop(s, lineText) {
  await s.page.locator('.monaco-editor .view-line', { hasText: lineText }).first().click();
  await s.page.keyboard.press('Control+Home');
  await s.waitForCursor(1);
}

/** The name of the theme the panel is drawn in. @param {RedlineSession} s */
const themeOf = async (s) => (await s.reviewFrame()).evaluate(() => document.body.dataset.vscodeThemeName);

/**
 * axe-core's serious and critical violations in the panel as it is now, each with its elements
 * and, for contrast, their colours.
 * @param {RedlineSession} s
 * @returns {Promise<string[]>}
 */
async function seriousViolations(s) {
  const frame = await s.reviewFrame();
  await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async () => {
    // axe is the page's global now.
    const results = await /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] });
    return results.violations
      .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
      .map((/** @type {any} */ v) => {
        const nodes = v.nodes.map((/** @type {any} */ n) => {
          const data = n.any?.[0]?.data;
          const colours = data?.fgColor
            ? ` ${data.fgColor} on ${data.bgColor}, ${data.contrastRatio}:1 at ${data.fontSize}`
            : '';
          return `${n.target.join(' ')}${colours}`;
        });
        return `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} elements: ${nodes.join('; ')})`;
      });
  });
}

/**
 * The review: every severity, a finding with no label, a suggestion, a broken reference, a diagram
 * that cannot be drawn (its notice), and enough findings that the last ones are past the
 * threaded hundred. `tag` is in each finding's text: a finding's id comes from its text, and its
 * state stays with the id, so a finding an earlier test decided would come back decided.
 * @param {string} marker @param {string} tag
 */
function everyStateReview(marker, tag) {
  const fillers = Array.from(
    { length: THREADED - 2 },
    (_, i) => `- check ${i + 1} of the helpers (${tag}), src/util.ts:${[3, 4, 7, 8][i % 4]}`,
  );
  return [
    `# Every state ${marker}`,
    '',
    'Every severity, each finding in a state the user left it in. See also src/missing.ts:3, which the workspace does not have.',
    '',
    '```mermaid',
    'flowchart LR',
    '  order --> ',
    '```',
    '',
    `- **blocking**: a negative total is never refused (${tag}), ${EXAMPLE}:58`,
    `- **bug**: the discount ignores unknown coupons (${tag}) at ${EXAMPLE}:42`,
    `- **risk**: tax is rounded by hand (${tag}) at ${EXAMPLE}:47`,
    '',
    '  ```suggestion',
    '    return roundCents(amount * TAX_RATE);',
    '  ```',
    '',
    `- **suggestion**: name the coupon table after what it holds (${tag}), ${EXAMPLE}:25`,
    `- nit: the tax rate wants a comment (${tag}), ${EXAMPLE}:${EDITED_LINE}`,
    `- **question**: is a rate of 0.2 right for every country (${tag})? ${EXAMPLE}:${EDITED_LINE}`,
    `- **praise**: \`priceOrder\` reads top to bottom (${tag}), ${EXAMPLE}:50`,
    ...fillers,
    '',
  ].join('\n');
}

/**
 * axe-core's serious and critical violations in every theme, each line naming the theme.
 * @param {RedlineSession} s @param {string[]} themes @param {string} view for the screenshots and the log
 * @param {() => Promise<void>} [beforeCheck] puts the panel as it is while the user reads it
 */
async function violationsInThemes(s, themes, view, beforeCheck) {
  /** @type {string[]} */
  const found = [];
  for (const name of themes) {
    await useTheme(s, name);
    await beforeCheck?.();
    const violations = await seriousViolations(s);
    process.stdout.write(`axe-core, ${view}, ${name}: ${violations.length} serious or critical\n`);
    found.push(...violations.map((violation) => `${name}: ${violation}`));
    await s.screenshot(`40-${view}-${name.toLowerCase().replace(/\s+/g, '-')}`);
  }
  return found;
}

describe('Contrast of the panel in every state and theme', () => {
  /** @type {Record<string, any>} the findings by their severity */
  const finding = {};
  /** @type {number} */
  let previousRevision;
  /** @type {string | undefined} */
  let original;
  /** @type {string | undefined} the theme the window had, put back at the end */
  let themeBefore;
  const marker = RedlineSession.marker('EVERY-STATE');
  const tag = marker.slice(-8);
  const exampleFile = () => join(/** @type {string} */ (session().workspace), EXAMPLE);

  after(async function () {
    const s = session();
    // A failure part-way leaves the edits, or another theme: the later suites need neither.
    if (original !== undefined && readFileSync(exampleFile(), 'utf8') !== original)
      writeFileSync(exampleFile(), original);
    if (themeBefore && (await themeOf(s).catch(() => undefined)) !== themeBefore) await useTheme(s, themeBefore);
  });

  it('a review holds every severity and every finding state, made from the panel and the editor', async function () {
    const s = session();
    original = readFileSync(exampleFile(), 'utf8');
    themeBefore = await themeOf(s);
    ({ revision: previousRevision } = await s.call('present-review', {
      title: 'Before',
      content: [
        `# Before ${marker}`,
        '',
        `- **bug**: the discount ignores unknown coupons (${tag}) at ${EXAMPLE}:42`,
        `- **nit**: the currency is hard-coded (${tag}), src/util.ts:3`,
        '',
      ].join('\n'),
    }));
    const { findings } = await s.call('present-review', {
      title: 'Every state',
      content: everyStateReview(marker, tag),
    });
    assert.equal(findings.length, THREADED + 5);
    const severities = ['blocking', 'bug', 'risk', 'suggestion', 'nit', 'question', 'praise'];
    assert.deepEqual(
      findings.slice(0, 7).map((/** @type {any} */ f) => f.severity),
      severities,
    );
    severities.forEach((severity, i) => (finding[severity] = findings[i]));
    const frame = await s.waitForReviewText(marker);
    const block = (/** @type {any} */ f) => frame.locator(`#review [data-finding="${f.id}"]`);
    // Decided in the panel, as the user decides: among the first hundred and past them.
    const past = findings.slice(THREADED + 1, THREADED + 4);
    for (const [target, button, badge] of /** @type {const} */ ([
      [finding.bug, 'Resolve', 'Resolved'],
      [finding.risk, 'Accept', 'Accepted'],
      [finding.nit, "Won't fix", "Won't fix"],
      [past[0], 'Resolve', 'Resolved'],
      [past[1], 'Accept', 'Accepted'],
      [past[2], "Won't fix", "Won't fix"],
    ])) {
      await block(target).locator('.redline-finding-actions button', { hasText: button }).click();
      await block(target).locator('.redline-finding-badge', { hasText: badge }).waitFor({ state: 'visible' });
    }
    assert.equal(await frame.locator('#review .redline-suggestion').count(), 1);
    assert.equal(await frame.locator('#review a.redline-broken').count(), 1);
    await frame.locator('#review .redline-mermaid-error').waitFor({ state: 'visible' });

    // In the editor: lines typed at the top move every finding of example.ts, and an edit to
    // line 24 leaves the two findings there without their code.
    await runCommand(s.page, 'Redline: Next Finding');
    await s.waitForCursor(58);
    await cursorToTop(s, 'export function totalOf');
    for (let i = 0; i < TYPED_LINES; i++) await s.page.keyboard.press('Enter');
    for (let i = 1; i < EDITED_LINE; i++) await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('End');
    await s.page.keyboard.press('ArrowLeft');
    await s.page.keyboard.type('5');
    const review = await waitFor(
      async () => {
        const r = await s.call('get-review');
        const byId = new Map(r.findings.map((/** @type {any} */ f) => [f.id, f]));
        const moved = byId.get(finding.blocking.id).line === 58 + TYPED_LINES;
        return moved && byId.get(finding.nit.id).stale && byId.get(finding.question.id).stale && r;
      },
      'the findings to follow the typed lines, and those at line 24 to go stale',
      20_000,
    );
    assert.deepEqual(
      review.findings.slice(0, 7).map((/** @type {any} */ f) => [f.severity, f.state, f.stale]),
      [
        ['blocking', 'open', false],
        ['bug', 'resolved', false],
        ['risk', 'accepted', false],
        ['suggestion', 'open', false],
        ['nit', 'wont-fix', true],
        ['question', 'open', true],
        ['praise', 'open', false],
      ],
    );
    await block(finding.nit).locator('.redline-finding-badge-stale').waitFor({ state: 'visible' });
    await block(finding.question).locator('.redline-finding-badge-stale').waitFor({ state: 'visible' });

    // A notice (the message box's "Sent"), and the comparison with the review before.
    await frame.locator('#message').fill('Checked every state.');
    await frame.locator('#send').click();
    await frame.locator('#send-status', { hasText: 'Sent' }).waitFor({ state: 'visible' });
    await runCommand(s.page, 'Redline: Compare with Previous Review');
    await frame
      .locator('#comparison h2', { hasText: `Compared with revision ${previousRevision}` })
      .waitFor({ state: 'visible' });
    // The bug resolved and the nit gone are fixed; everything else is new.
    assert.deepEqual(await frame.locator('#comparison h3').allInnerTexts(), [
      `New (${THREADED + 4})`,
      'Fixed (2)',
      'Still open (0)',
      'Won’t fix (0)',
    ]);
    await frame.locator('#history').waitFor({ state: 'visible' });
  });

  it('has no serious or critical accessibility violation in any state, in the light, dark and high-contrast themes', async function () {
    const s = session();
    const frame = await s.reviewFrame();
    // Under the pointer, as while the user reads it: the declined finding whose code changed.
    const hoverDeclined = () =>
      frame.locator(`#review [data-finding="${finding.nit.id}"]`).hover({ position: { x: 5, y: 5 } });
    const found = await violationsInThemes(s, THEMES, 'every-state', hoverDeclined);
    // An earlier review, read-only, under its banner; the themes in reverse, to switch one fewer time.
    await frame.locator('#history').selectOption(String(previousRevision));
    await frame.locator('#earlier', { hasText: `revision ${previousRevision}` }).waitFor({ state: 'visible' });
    found.push(...(await violationsInThemes(s, [...THEMES].reverse(), 'earlier-review')));
    await frame.locator('#back').click();
    await frame.locator('#earlier').waitFor({ state: 'hidden' });
    assert.deepEqual(found, []);
  });

  it('the edits are taken back in the editor, and the findings find their code again', async function () {
    const s = session();
    // The second finding (the bug, line 42 moved to 45) shows example.ts around its lines.
    await runCommand(s.page, 'Redline: Next Finding');
    await s.waitForCursor(42 + TYPED_LINES);
    assert.equal(await s.activeEditorTab(), 'example.ts');
    await cursorToTop(s, 'export function discountFor');
    for (let i = 0; i < TYPED_LINES; i++) await s.page.keyboard.press('Delete');
    for (let i = 1; i < EDITED_LINE; i++) await s.page.keyboard.press('ArrowDown');
    await s.page.keyboard.press('End');
    await s.page.keyboard.press('ArrowLeft');
    await s.page.keyboard.press('Backspace');
    await waitFor(
      () => readFileSync(exampleFile(), 'utf8') === original || undefined,
      'auto save to write example.ts back as it was',
      20_000,
    );
    await waitFor(
      async () => {
        const { findings } = await s.call('get-review');
        return findings.every((/** @type {any} */ f) => !f.stale) && findings[0].line === 58;
      },
      'the findings back at their lines',
      20_000,
    );
  });
});
