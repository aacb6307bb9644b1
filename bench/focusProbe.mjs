// `node bench/focusProbe.mjs`: does the editor Redline opens keep the keyboard on a busy machine?
// In code-server with the packaged extension (the UI suite's window), 40 steps each of: Next
// Finding from the palette with the panel focused, a click on a link in the panel, a click on a
// finding in the panel, and (the other side of the rule) a move to the panel from the keyboard,
// and a click on the panel's tab, right after an editor opened. Busy loops keep every core busy throughout. A step fails when the
// status bar never shows the line it opened, or when, some seconds later, the focus is no longer
// where the step left it (a late focus change not undone, or a keyboard move undone). Prints the
// counts, and the median time from the action to the line in the status bar.
//
//   npm run package && node bench/focusProbe.mjs [--vsix <file>] [--steps 40] [--settle-ms 3000] [--busy <n>]
//
// Not a test: its figures depend on the machine; the UI suite's tests check each case once.

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installVsix } from '../test/e2e/harness/codeServer.mjs';
import { ensureTestVsCode } from '../test/e2e/harness/install.mjs';
import { makeTempDir, removeTempDir, sleep } from '../test/e2e/harness/processes.mjs';
import { runCommand } from '../test/e2e/harness/workbench.mjs';
import { EXTENSION_ID, FIXTURE_WORKSPACE, findVsix } from '../test/e2e/packaged.mjs';
import { closeSession, openSession } from '../test/e2e/ui/session.mjs';
import { median } from './tables.mjs';

const { values: options } = parseArgs({
  options: {
    vsix: { type: 'string' },
    steps: { type: 'string', default: '40' },
    'settle-ms': { type: 'string', default: '3000' },
    busy: { type: 'string', default: String(cpus().length * 2) },
    only: { type: 'string', multiple: true },
  },
});
const STEPS = Number(options.steps);
const SETTLE_MS = Number(options['settle-ms']);
const EXAMPLE = 'src/example.ts';
/** Lines of example.ts the review's findings and links point at, in the review's order. */
const FINDING_LINES = [10, 31, 42, 47];
const LINK_LINES = [5, 20, 36, 60];

const review = [
  '# Focus probe',
  '',
  ...FINDING_LINES.map((line, i) => `- **bug**: finding ${i + 1} of the probe at ${EXAMPLE}:${line}`),
  '',
  'Links:',
  '',
  ...LINK_LINES.map((line) => `- see ${EXAMPLE}:${line}`),
  '',
].join('\n');

/** Busy loops at normal priority, one per requested core, until stopped. */
function startBusyLoops(count) {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }),
  );
}

async function main() {
  await ensureTestVsCode();
  const vsix = findVsix(options.vsix);
  const work = makeTempDir('redline-focus-probe-');
  // The probe's window publishes and looks for windows only here, as the e2e runs' do (test/e2e/run.mjs).
  process.env.REDLINE_RUNTIME_DIR = makeTempDir('rl-probe-');
  const busy = [];
  try {
    const extensionsDir = join(work, 'extensions');
    await installVsix(vsix.path, extensionsDir);
    const installed = readdirSync(extensionsDir).find((name) => name.startsWith(`${EXTENSION_ID}-`)) ?? '';
    const s = await openSession({
      extensionsDir,
      serverPath: join(extensionsDir, installed, 'dist', 'mcp-server.js'),
      workspaceTemplate: FIXTURE_WORKSPACE,
    });
    const { findings } = await s.call('present-review', { content: review, title: 'Focus probe' });
    const frame = await s.waitForReviewText('Links:');
    busy.push(...startBusyLoops(Number(options.busy)));
    console.log(
      `${vsix.path}: ${STEPS} steps each, ${options.busy} busy loops on ${cpus().length} cores, settle ${SETTLE_MS} ms`,
    );

    /** The panel focused, as a user reading the review has it: a click on its title. */
    const focusPanel = () => frame.locator('#title').click();
    /** Whether the editor shows `line` in the status bar now, and is the active tab. */
    const editorShows = async (line) =>
      (await s.cursorStatus().catch(() => '')).startsWith(`Ln ${line}, `) &&
      (await s.activeEditorTab().catch(() => '')) === 'example.ts';
    const panelActive = async () => (await s.activeEditorTab().catch(() => '')).startsWith('Review:');

    const kinds = {
      'Next Finding': async (step) => {
        await focusPanel();
        await runCommand(s.page, 'Redline: Next Finding');
        // Every list item with a reference is a finding: Next Finding walks them all, in the review's order.
        return { line: findings[step % findings.length].line };
      },
      'link click': async (step) => {
        const line = LINK_LINES[step % LINK_LINES.length];
        await frame.locator(`#review a.redline-ref[data-ref="${EXAMPLE}:${line}"]`).first().click();
        return { line };
      },
      'finding click': async (step) => {
        const finding = findings[step % findings.length];
        await frame.locator(`#review [data-finding="${finding.id}"]`).click({ position: { x: 5, y: 5 } });
        return { line: finding.line };
      },
      'keyboard move to the panel': async (step) => {
        const line = LINK_LINES[step % LINK_LINES.length];
        await frame.locator(`#review a.redline-ref[data-ref="${EXAMPLE}:${line}"]`).first().click();
        return { line, then: 'keyboard' };
      },
      "click on the panel's tab": async (step) => {
        const line = LINK_LINES[step % LINK_LINES.length];
        await frame.locator(`#review a.redline-ref[data-ref="${EXAMPLE}:${line}"]`).first().click();
        return { line, then: 'tab' };
      },
    };
    // Next Finding walks the findings in order from the first: start from none shown.
    const results = [];
    for (const [kind, act] of Object.entries(kinds)) {
      if (options.only && !options.only.includes(kind)) continue;
      const failures = [];
      const times = [];
      for (let step = 0; step < STEPS; step++) {
        const started = Date.now();
        const { line, then } = await act(step);
        try {
          await s.page
            .locator('.statusbar-item', { hasText: new RegExp(`^\\s*Ln ${line}, Col 1\\b`) })
            .waitFor({ state: 'visible', timeout: 20_000 });
        } catch {
          failures.push(`step ${step + 1}: never at line ${line}: ${await s._cursorReport()}`);
          continue;
        }
        times.push(Date.now() - started);
        if (then === 'keyboard') {
          // The panel's group by its number: Ctrl+1, Ctrl+2, ...
          const group = await s.page.evaluate(() =>
            [...globalThis.document.querySelectorAll('.editor-group-container')].findIndex((container) =>
              [...container.querySelectorAll('.tab')].some((tab) => tab.textContent?.includes('Review:')),
            ),
          );
          await s.page.keyboard.press(`Control+${group + 1}`);
          await sleep(SETTLE_MS);
          if (!(await panelActive())) failures.push(`step ${step + 1}: the keyboard's move to the panel was undone`);
          continue;
        }
        if (then === 'tab') {
          await s.page.locator('.tabs-container .tab', { hasText: 'Review: Focus probe' }).click();
          await sleep(SETTLE_MS);
          if (!(await panelActive()) || !(await frame.evaluate(() => globalThis.document.hasFocus())))
            failures.push(`step ${step + 1}: the click on the panel's tab was undone`);
          continue;
        }
        await sleep(SETTLE_MS);
        if (!(await editorShows(line)))
          failures.push(
            `step ${step + 1}: line ${line} shown, then lost: ${(await s.cursorStatus().catch(() => 'no cursor')) || 'no cursor'} in ${await s.activeEditorTab().catch(() => '?')}`,
          );
      }
      results.push({ kind, steps: STEPS, failures: failures.length, medianMs: median(times) });
      console.log(
        `${kind}: ${failures.length} failures of ${STEPS}; median ${Math.round(median(times))} ms to the line`,
      );
      for (const failure of failures.slice(0, 5)) console.log(`  ${failure}`);
    }
    console.log(JSON.stringify(results));
  } finally {
    for (const child of busy) child.kill('SIGKILL');
    await closeSession();
    removeTempDir(work);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
