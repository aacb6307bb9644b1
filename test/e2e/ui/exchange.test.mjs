// A review out of the window and back, from the Command Palette, through code-server's own file
// dialogs: "Redline: Export Review…" (its format picker, then the save dialog) writes the review
// the panel shows as SARIF with the answer given in the panel, and "Redline: Open SARIF as
// Review…" (the open dialog) shows that log again as the "SARIF import" tab, the answer kept and
// marked as imported; a file that is not SARIF is refused with the reason and the review shown
// stays; a log written on another machine finds its files by the end of their paths, and one whose
// file the workspace holds twice is placed once the user locates it, from the notification.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';

const EXAMPLE = 'src/example.ts';
const IMPORT_TAB = 'SARIF import';

/**
 * Answers code-server's simple file dialog (a quick input whose box holds a path) with `file`.
 * @param {import('playwright-core').Page} page @param {string} file
 */
async function answerFileDialog(page, file) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input[type="text"], input:not([type])').first();
  await input.waitFor({ state: 'visible' });
  // The dialog fills its box, and then lists the folder: typed after both, the path is ours.
  await waitFor(async () => (await input.inputValue()).startsWith('/'), 'the file dialog to show its folder', 15_000);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'src' }).first().waitFor({ state: 'visible' });
  await input.fill(file);
  let shown = '';
  await waitFor(
    async () => (shown = await input.inputValue()) === file,
    `${file} in the file dialog (it shows ${JSON.stringify(shown)})`,
  );
  // An Enter that lands before the dialog has listed the typed path's folder is taken as a move
  // within it: for a file that exists, wait until the listing shows it.
  if (existsSync(file)) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible' });
  }
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
}

/**
 * Runs `title` from the palette and clicks `rowText` in the picker it opens. A picker that closes
 * before the click (in the fresh-clone run, under load, it was gone before the click landed) is
 * dismissed with whatever replaced it, and the command run again.
 * @param {import('playwright-core').Page} page @param {string} title @param {string} rowText
 */
async function runCommandPicking(page, title, rowText, timeoutMs = WAIT_DEADLINE_MS) {
  const deadline = Date.now() + timeoutMs;
  const widget = page.locator('.quick-input-widget');
  for (;;) {
    await runCommand(page, title, { opensPicker: true, timeoutMs: Math.max(5000, deadline - Date.now()) });
    try {
      await widget.locator('.quick-input-list .monaco-list-row', { hasText: rowText }).first().click({ timeout: 5000 });
      return;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      while (Date.now() < deadline && (await widget.isVisible().catch(() => false))) {
        await page.keyboard.press('Escape');
        await widget.waitFor({ state: 'hidden', timeout: 2000 }).catch(() => {});
      }
    }
  }
}

describe('Export and import from the palette', () => {
  const marker = RedlineSession.marker('EXCHANGE');
  /** @type {string} */
  let exported;
  /** @type {import('@modelcontextprotocol/sdk/client/index.js').Client | undefined} */
  let importTab;

  after(async () => {
    await importTab?.close().catch(() => {});
  });

  it('"Export Review…" asks for the format and the file, and writes the SARIF with the answer given in the panel', async () => {
    const s = session();
    await s.call('present-review', {
      title: 'Exchange',
      content: [
        `# Exchange ${marker}`,
        '',
        `- **bug**: the loop at ${EXAMPLE}:42 never stops`,
        `- nit: the name at ${EXAMPLE}:10 says too little`,
        '',
      ].join('\n'),
    });
    const frame = await s.waitForReviewText(marker);
    await frame.locator('#review .redline-finding-actions button', { hasText: 'Resolve' }).first().click();
    await waitFor(
      async () => (await s.call('get-review')).findings[0]?.state === 'resolved',
      'the first finding resolved',
    );

    exported = join(/** @type {string} */ (s.workspace), `exchange-${marker}.sarif`);
    // The format picker, then the save dialog, in the same quick input.
    await runCommandPicking(s.page, 'Redline: Export Review…', 'SARIF 2.1.0');
    await answerFileDialog(s.page, exported);
    await s.page
      .locator('.notifications-toasts .notification-toast', {
        hasText: `exported 2 findings as SARIF to exchange-${marker}.sarif`,
      })
      .waitFor({ state: 'visible' });

    assert.ok(existsSync(exported), `${exported} was written`);
    const log = JSON.parse(readFileSync(exported, 'utf8'));
    assert.equal(log.version, '2.1.0');
    const results = log.runs[0].results;
    assert.deepEqual(
      results.map((/** @type {any} */ r) => [
        r.locations[0].physicalLocation.artifactLocation.uri,
        r.locations[0].physicalLocation.region.startLine,
        r.properties['redline.state'],
      ]),
      [
        [EXAMPLE, 42, 'resolved'],
        [EXAMPLE, 10, 'open'],
      ],
    );
    await s.screenshot('60-exported-sarif');
  });

  it('"Open SARIF as Review…" shows the log as the "SARIF import" tab, with the answer it carries', async () => {
    const s = session();
    await runCommand(s.page, 'Redline: Open SARIF as Review…', { opensPicker: true });
    await answerFileDialog(s.page, exported);
    await s.page
      .locator('.notifications-toasts .notification-toast', { hasText: 'opened as revision' })
      .waitFor({ state: 'visible' });
    // The log holds the findings, not the review's prose: its heading is the review's title.
    const frame = await s.waitForReviewText('the name at');
    await waitFor(
      async () =>
        (await frame
          .locator('#tabs .redline-tab[aria-selected="true"]')
          .innerText()
          .catch(() => '')) === IMPORT_TAB,
      `the ${IMPORT_TAB} tab in front`,
    );
    await frame
      .locator('#review .redline-finding-actions', { hasText: 'Reopen' })
      .first()
      .waitFor({ state: 'visible' });
    // The answer came from the file, not from the user: the panel says so, and where from.
    const badge = frame.locator('#review .redline-finding-badge-imported').first();
    await badge.waitFor({ state: 'visible' });
    assert.match(
      (await badge.getAttribute('title')) ?? '',
      new RegExp(`imported from exchange-${marker}\\.sarif, written by Redline`),
    );

    // What an assistant of that name would read: the findings, at their places, the answer kept.
    importTab = await s.connectAssistant(IMPORT_TAB);
    const review = /** @type {any} */ (await importTab.callTool({ name: 'get-review', arguments: {} }))
      .structuredContent;
    assert.deepEqual(
      review.findings.map((/** @type {any} */ f) => [f.line, f.state]),
      [
        [42, 'resolved'],
        [10, 'open'],
      ],
    );
    // The assistant's own review is where it was.
    assert.match((await s.call('get-review')).markdown, new RegExp(marker));
    await s.screenshot('61-sarif-import-tab');
  });

  it('a file that is not SARIF is refused with the reason, and the imported review stays', async () => {
    const s = session();
    const before = /** @type {any} */ (await importTab?.callTool({ name: 'get-review', arguments: {} }))
      ?.structuredContent.revision;
    const notSarif = join(/** @type {string} */ (s.workspace), `package-${marker}.json`);
    writeFileSync(notSarif, JSON.stringify({ name: 'not-a-log', version: '1.0.0' }));
    await runCommand(s.page, 'Redline: Open SARIF as Review…', { opensPicker: true });
    await answerFileDialog(s.page, notSarif);
    await s.page
      .locator('.notifications-toasts .notification-toast', { hasText: 'is not a SARIF log' })
      .waitFor({ state: 'visible' });
    const after = /** @type {any} */ (await importTab?.callTool({ name: 'get-review', arguments: {} }))
      ?.structuredContent.revision;
    assert.equal(after, before);
  });

  it('a log from another machine: its files found by the end of their path, and one the workspace holds twice placed once located', async () => {
    const s = session();
    const workspace = /** @type {string} */ (s.workspace);
    // The workspace holds two index.ts: the log's /Users/ci/app/index.ts could be either.
    for (const folder of ['lib/a', 'lib/b']) {
      mkdirSync(join(workspace, folder), { recursive: true });
      writeFileSync(join(workspace, folder, 'index.ts'), `export const ${folder.replace('/', '_')} = 1;\n`.repeat(20));
    }
    const log = join(workspace, `ci-${marker}.sarif`);
    writeFileSync(
      log,
      JSON.stringify({
        version: '2.1.0',
        runs: [
          {
            tool: { driver: { name: 'Lint', rules: [{ id: 'no-loop', helpUri: 'https://lint.example/no-loop' }] } },
            results: [
              ['file:///home/runner/work/app/app/src/example.ts', 42, `the loop never stops ${marker}`],
              ['file:///Users/ci/app/index.ts', 3, `the export is unused ${marker}`],
            ].map(([uri, startLine, text]) => ({
              ruleId: 'no-loop',
              level: 'warning',
              message: { text },
              locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine } } }],
            })),
          },
        ],
      }),
    );
    await runCommand(s.page, 'Redline: Open SARIF as Review…', { opensPicker: true });
    await answerFileDialog(s.page, log);
    const toast = s.page.locator('.notifications-toasts .notification-toast', {
      hasText: `ci-${marker}.sarif opened as revision`,
    });
    await toast.waitFor({ state: 'visible' });
    const frame = await s.waitForReviewText(`the loop never stops ${marker}`);
    // The first found by the end of its path; the review says how.
    await frame
      .locator('#review', { hasText: 'this is the one file in the workspace whose path ends in “src/example.ts”' })
      .waitFor({ state: 'visible' });
    await s.screenshot('62-sarif-from-another-machine');

    // The second is not guessed: the notification offers to locate it; the user picks lib/b/index.ts.
    await toast.locator('.monaco-button', { hasText: 'Locate index.ts…' }).click();
    await answerFileDialog(s.page, join(workspace, 'lib/b/index.ts'));
    await s.page
      .locator('.notifications-toasts .notification-toast', { hasText: `ci-${marker}.sarif opened as revision` })
      .last()
      .waitFor({ state: 'visible' });
    importTab ??= await s.connectAssistant(IMPORT_TAB);
    await waitFor(
      async () => {
        const review = /** @type {any} */ (await importTab?.callTool({ name: 'get-review', arguments: {} }))
          ?.structuredContent;
        return (review?.findings ?? []).some(
          (/** @type {any} */ f) => f.file.endsWith(join('lib', 'b', 'index.ts')) && f.line === 3,
        );
      },
      'the located finding at lib/b/index.ts:3',
      20_000,
    );
    await s.waitForReviewText('found through the folder you located');
    await s.screenshot('63-sarif-located');
  });
});
