// The UI suite: mocha, in this process, over one Redline window (see session.mjs) that the
// root hooks open and close. Test files run in the order below; later ones build on earlier state.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';
import { ARTIFACTS_DIR } from '../harness/workbench.mjs';
import { closeSession, openSession, session } from './session.mjs';
import { TEST_DEADLINE_MS } from '../../support/deadlines.cjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const FILES = [
  'review.test.mjs',
  'activity.test.mjs',
  'findings.test.mjs',
  'keyboard.test.mjs',
  'panelFront.test.mjs',
  'history.test.mjs',
  'assistants.test.mjs',
  'connect.test.mjs',
  'hostile.test.mjs',
  'mermaid.test.mjs',
  'contrast.test.mjs',
  'outside.test.mjs',
  'streaming.test.mjs',
  'longPage.test.mjs',
  'timing.test.mjs',
  'windows.test.mjs',
  'reload.test.mjs',
  'storage.test.mjs',
  'exchange.test.mjs',
  'chatView.test.mjs',
  'publish.test.mjs',
  'readmePictures.test.mjs',
];

/**
 * @param {import('./session.mjs').SessionOptions & { grep?: string }} options
 * @returns {Promise<import('../run.mjs').SuiteResult>}
 */
export async function runUiSuite({ grep, ...sessionOptions }) {
  const started = Date.now();
  removeOldScreenshots();
  /** @type {Record<string, string>} */
  let figures = {};
  /** @type {{ title: string, lines: string[] }[]} what the extension logged just before each failure */
  const failureLogs = [];
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: TEST_DEADLINE_MS, slow: 10_000 });
  if (grep) mocha.grep(grep);
  mocha.rootHooks({
    beforeAll: [
      async function openWindow() {
        await openSession(sessionOptions);
      },
    ],
    afterEach: [
      async function screenshotFailure() {
        const test = this.currentTest;
        if (test?.state === 'failed') {
          await session()
            .screenshot(`FAILED-${test.title.slice(0, 60)}`)
            .catch(() => {});
          failureLogs.push({ title: test.fullTitle(), lines: logTail() });
        }
      },
    ],
    afterAll: [
      async function closeWindow() {
        try {
          figures = { ...session().figures };
        } catch {
          // The window never opened; beforeAll reported why.
        }
        await closeSession();
      },
    ],
  });
  for (const file of FILES) mocha.addFile(join(HERE, file));
  await mocha.loadFilesAsync();
  const stats = await new Promise((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
  });
  mocha.dispose();
  // After mocha's list of failures, so that the end of a CI run's output has them together.
  for (const { title, lines } of failureLogs) {
    process.stdout.write(
      `\nthe Redline log's last lines when "${title}" failed:\n${lines.map((line) => `  ${line}\n`).join('')}`,
    );
  }
  // A failing root hook fails no test of its own, but every test behind it is skipped.
  const hookFailed = stats.failures > 0 && stats.passes + stats.failures < stats.tests;
  return {
    name: 'ui',
    passed: stats.passes,
    failed: stats.failures,
    ms: Date.now() - started,
    notes: [
      ...Object.entries(figures).map(([name, value]) => `${name}: ${value}`),
      ...(hookFailed ? ['a hook failed; the tests behind it did not run'] : []),
    ],
  };
}

/** How many of the Redline log's last lines a failure prints: what the extension did just before. */
const LOG_TAIL_LINES = 40;

/** The end of the window's Redline log: only the run's output is kept of a CI run. */
function logTail() {
  try {
    return session().redlineLogLines().slice(-LOG_TAIL_LINES);
  } catch (error) {
    return [`(no Redline log: ${error instanceof Error ? error.message : String(error)})`];
  }
}

function removeOldScreenshots() {
  try {
    for (const name of readdirSync(ARTIFACTS_DIR)) {
      if (name.startsWith('e2e-ui-') && name.endsWith('.png')) rmSync(join(ARTIFACTS_DIR, name), { force: true });
    }
  } catch {
    // No artifacts yet.
  }
}
