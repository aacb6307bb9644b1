// Proves the e2e harness end to end with a throwaway extension: a mocha suite in
// the real extension host, a .vsix install, and the UI a person would use
// (command palette, webview, terminal, status bar). Run: node test/e2e/harness/selfcheck.mjs
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createVSIX } from '@vscode/vsce';
import { installVsix, listExtensions, startCodeServer } from './codeServer.mjs';
import { runExtensionTests } from './extensionTests.mjs';
import { CACHE_DIR, REPO_ROOT, ensureTestVsCode } from './install.mjs';
import { descendants, isAlive, makeTempDir, processesMatching, removeTempDir, sleep } from './processes.mjs';
import {
  closeWorkbench,
  findWebviewFrame,
  openFile,
  openWorkbench,
  readTerminalEnv,
  runCommand,
  screenshot,
  statusBarCursor,
  workbenchTiming,
} from './workbench.mjs';

const FIXTURES = join(REPO_ROOT, 'test', 'e2e', 'fixtures');
const EXTENSION = join(FIXTURES, 'hello-extension');
const EXTENSION_ID = 'redline-test.hello-extension';
const WORKSPACE = join(FIXTURES, 'hello-workspace');
const OVERALL_TIMEOUT_MS = 10 * 60_000;

/** @type {Record<string, string>} */
const figures = {};
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

function check(/** @type {boolean} */ ok, /** @type {string} */ what) {
  if (!ok) throw new Error(`self-check failed: ${what}`);
  process.stdout.write(`ok - ${what}\n`);
}

async function checkExtensionTests() {
  let captured = '';
  const tee = new Writable({
    write(chunk, _encoding, done) {
      captured += chunk.toString();
      process.stdout.write(chunk, done);
    },
  });
  const started = Date.now();
  const code = await runExtensionTests({
    extensionDevelopmentPath: EXTENSION,
    extensionTestsPath: join(FIXTURES, 'hello-suite', 'index.js'),
    workspace: WORKSPACE,
    env: { HELLO_SUITE_ENV: 'from-payload' },
    output: tee,
  });
  figures['extension tests (start to exit code)'] = seconds(Date.now() - started);
  check(code === 0, `mocha suite in the extension host exits 0 (got ${code})`);
  check(
    /4 passing/.test(captured) && !/failing/.test(captured),
    'mocha output reached the harness: 4 passing, none failing',
  );
}

async function checkVsixInstall() {
  const dir = makeTempDir('redline-selfcheck-vsix-');
  try {
    const vsix = join(dir, 'hello-extension.vsix');
    await createVSIX({
      cwd: EXTENSION,
      packagePath: vsix,
      dependencies: false,
      allowMissingRepository: true,
      skipLicense: true,
    });
    const extensionsDir = join(dir, 'extensions');
    await installVsix(vsix, extensionsDir);
    const listed = await listExtensions(extensionsDir);
    check(
      listed.includes(`${EXTENSION_ID}@0.0.1`),
      `installVsix: code-server lists ${EXTENSION_ID}@0.0.1 (${JSON.stringify(listed)})`,
    );
  } finally {
    removeTempDir(dir);
  }
}

async function checkUi() {
  const dir = makeTempDir('redline-selfcheck-ui-');
  const extensionsDir = join(dir, 'extensions');
  /** @type {import('./codeServer.mjs').CodeServer | undefined} */
  let server;
  /** @type {import('playwright-core').Page | undefined} */
  let page;
  /** @type {number[]} */
  let tree = [];
  try {
    mkdirSync(extensionsDir);
    // A symlinked folder is an installed extension, no .vsix needed.
    symlinkSync(EXTENSION, join(extensionsDir, `${EXTENSION_ID}-0.0.1`), 'dir');
    server = await startCodeServer({ extensionsDir, workspace: WORKSPACE });
    figures['code-server spawn to /healthz'] = seconds(server.startupMs);
    page = await openWorkbench(server.url, WORKSPACE);
    const timing = workbenchTiming(page);
    if (timing) {
      figures['workbench page load'] = seconds(timing.loadMs);
      figures['goto to .monaco-workbench visible'] = seconds(timing.visibleMs);
    }
    process.stdout.write(`workbench at ${server.url}\n`);
    await screenshot(page, 'selfcheck-1-workbench');

    await openFile(page, 'README.md');
    const cursor = await statusBarCursor(page);
    check(
      cursor.line === 1 && cursor.column === 1,
      `status bar shows the cursor at Ln 1, Col 1 after opening README.md (${JSON.stringify(cursor)})`,
    );

    const commandStarted = Date.now();
    await runCommand(page, 'Hello Test: Say Hello', { timeoutMs: 30_000 });
    const frame = await findWebviewFrame(page, '#hello-test-greeting');
    figures['F1 command to webview text found'] = seconds(Date.now() - commandStarted);
    const greeting = await frame.locator('#hello-test-greeting').innerText();
    check(greeting === 'Hello from webview', `the webview shows "${greeting}"`);
    await screenshot(page, 'selfcheck-2-webview');

    const terminalStarted = Date.now();
    const env = await readTerminalEnv(page, ['HELLO_TEST_VAR', 'HELLO_TEST_UNSET']);
    figures['new terminal to env read'] = seconds(Date.now() - terminalStarted);
    check(env.HELLO_TEST_VAR === '42', `a new terminal sees HELLO_TEST_VAR=${env.HELLO_TEST_VAR}`);
    check(env.HELLO_TEST_UNSET === undefined, 'an unset variable reads as undefined');
    await screenshot(page, 'selfcheck-3-terminal');
    tree = descendants(server.pid);
  } catch (error) {
    if (page) await screenshot(page, 'selfcheck-failure').catch(() => {});
    throw error;
  } finally {
    await closeWorkbench(page);
    const stopStarted = Date.now();
    await server?.stop();
    figures['code-server stop'] = seconds(Date.now() - stopStarted);
    removeTempDir(dir);
  }
  const survivors = tree.filter(isAlive);
  check(
    survivors.length === 0,
    `every process code-server started is gone (${tree.length} checked, alive: ${JSON.stringify(survivors)})`,
  );
}

async function checkNothingLeft() {
  await sleep(500);
  const left = [...processesMatching(CACHE_DIR), ...processesMatching('playwright_chromiumdev_profile')];
  check(
    left.length === 0,
    `no code-server or chromium process is left (${JSON.stringify(left.map((p) => p.cmd.slice(0, 100)))})`,
  );
}

async function main() {
  const started = Date.now();
  const hardStop = setTimeout(() => {
    process.stderr.write(`self-check did not finish within ${OVERALL_TIMEOUT_MS / 1000} s\n`);
    process.exit(1); // The exit hook in processes.mjs kills what is still running.
  }, OVERALL_TIMEOUT_MS);
  hardStop.unref();

  const installStarted = Date.now();
  await ensureTestVsCode();
  figures['ensureTestVsCode'] = seconds(Date.now() - installStarted);

  await checkExtensionTests();
  await checkVsixInstall();
  await checkUi();
  await checkNothingLeft();

  figures['self-check wall time'] = seconds(Date.now() - started);
  process.stdout.write('\nfigures:\n');
  for (const [name, value] of Object.entries(figures)) process.stdout.write(`  ${name}: ${value}\n`);
  process.stdout.write('screenshots: test-artifacts/selfcheck-*.png\n');
  process.stdout.write('self-check passed\n');
  clearTimeout(hardStop);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
