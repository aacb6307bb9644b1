// `node test/e2e/run.mjs`: Redline's end-to-end suites against the packaged extension
// (redline-<version>.vsix) in a real VS Code (code-server, driven by Playwright in chromium).
//   1. extension-host suite: mocha inside the extension host (test/e2e/suite/)
//   2. UI suite: what a user sees in the workbench (test/e2e/ui/)
// Installs the test VS Code when missing. Ends with the line "N passed, M failed"; exits 1 on
// any failure. Options: --suite extension-host|ui (run one), --grep <text> (filter tests),
// --vsix <path> (test another build's package with these tests, e.g. an older commit's for its figures).
import { randomUUID } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { installVsix, listExtensions } from './harness/codeServer.mjs';
import { runExtensionTests } from './harness/extensionTests.mjs';
import { REPO_ROOT, ensureTestVsCode } from './harness/install.mjs';
import { makeTempDir, removeTempDir, sleep } from './harness/processes.mjs';
import { EXTENSION_ID, FIXTURE_WORKSPACE, checkVsixContents, extractVsix, findVsix } from './packaged.mjs';
import { runUiSuite } from './ui/index.mjs';

const OVERALL_TIMEOUT_MS = 15 * 60_000;
const EXTENSION_HOST_TIMEOUT_MS = 4 * 60_000;
const SUITES = ['extension-host', 'ui'];
/** Every process this run starts inherits it, so leftovers can be found by their environment. */
const RUN_MARKER = 'REDLINE_E2E_RUN';
/** How long stopped servers get to reap their children before what is left counts as leaked. */
const LEFTOVER_GRACE_MS = 5000;

const say = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * @typedef {object} SuiteResult
 * @property {string} name
 * @property {number} passed
 * @property {number} failed
 * @property {number} ms
 * @property {string[]} [notes]  figures and failure reasons for the summary
 */

async function main() {
  const started = Date.now();
  const { values: options } = parseArgs({
    options: { suite: { type: 'string', multiple: true }, grep: { type: 'string' }, vsix: { type: 'string' } },
  });
  const wanted = options.suite ?? SUITES;
  const unknown = wanted.filter((name) => !SUITES.includes(name));
  if (unknown.length > 0) throw new Error(`Unknown suite ${unknown.join(', ')}; choose from ${SUITES.join(', ')}`);
  const runId = randomUUID();
  process.env[RUN_MARKER] = runId;
  // The run's windows publish and look for each other only here: an open VS Code, a code-server
  // or another test run on this machine never changes a result, and never sees these windows.
  process.env.REDLINE_RUNTIME_DIR = makeTempDir('rl-e2e-');

  const hardStop = setTimeout(() => {
    say(`e2e: did not finish within ${OVERALL_TIMEOUT_MS / 60_000} min; stopping.`);
    say('0 passed, 1 failed');
    process.exit(1); // harness/processes.mjs kills every process group still tracked.
  }, OVERALL_TIMEOUT_MS);
  hardStop.unref();

  try {
    const installStarted = Date.now();
    await ensureTestVsCode();
    say(`test VS Code ready (${seconds(Date.now() - installStarted)})`);
  } catch (error) {
    // Never skip: a machine that cannot run the suites fails them, naming the command to run.
    say(`e2e: cannot set up the test VS Code: ${error instanceof Error ? error.message : String(error)}`);
    say('0 passed, 1 failed');
    process.exitCode = 1;
    return;
  }

  const work = makeTempDir('redline-e2e-');
  /** @type {SuiteResult[]} */
  const results = [];
  try {
    const vsix = findVsix(options.vsix);
    // The timing tests write which package their figures are of.
    process.env.REDLINE_E2E_VSIX = vsix.path;
    results.push(checkPackage(vsix.path));
    const extensionDir = extractVsix(vsix.path, join(work, 'vsix'));
    const extensionsDir = join(work, 'extensions');
    await installVsix(vsix.path, extensionsDir);
    const listed = await listExtensions(extensionsDir);
    if (!listed.includes(`${EXTENSION_ID}@${vsix.version}`)) {
      throw new Error(`code-server did not install ${vsix.path}: it lists ${JSON.stringify(listed)}`);
    }
    const installedDir = join(
      extensionsDir,
      readdirSync(extensionsDir).find((name) => name.startsWith(`${EXTENSION_ID}-`)) ?? '',
    );
    say(
      `testing ${vsix.path.startsWith(REPO_ROOT) ? vsix.path.slice(REPO_ROOT.length + 1) : vsix.path} (${EXTENSION_ID}@${vsix.version})\n`,
    );

    if (wanted.includes('extension-host')) {
      results.push(await runExtensionHostSuite({ extensionDir, work, grep: options.grep }));
    }
    if (wanted.includes('ui')) {
      say('\n== ui suite ==');
      results.push(
        await runUiSuite({
          extensionsDir,
          serverPath: join(installedDir, 'dist', 'mcp-server.js'),
          workspaceTemplate: FIXTURE_WORKSPACE,
          grep: options.grep,
        }),
      );
    }
  } catch (error) {
    const detail =
      error instanceof Error
        ? process.env.E2E_VERBOSE
          ? (error.stack ?? error.message)
          : error.message
        : String(error);
    say(`\ne2e: ${detail}`);
    results.push({ name: 'setup', passed: 0, failed: 1, ms: 0, notes: ['the run stopped before its suites finished'] });
  } finally {
    removeTempDir(work);
  }

  const leftovers = await leftoverProcesses(runId);
  if (leftovers.length > 0) {
    results.push({
      name: 'cleanup',
      passed: 0,
      failed: 1,
      ms: 0,
      notes: [`processes left running (killed now): ${leftovers.join('; ')}`],
    });
  }

  say('\n== summary ==');
  for (const result of results) {
    say(`${result.name} suite: ${result.passed} passed, ${result.failed} failed (${seconds(result.ms)})`);
    for (const note of result.notes ?? []) say(`  ${note}`);
  }
  say('screenshots: test-artifacts/e2e-ui-*.png');
  say(`e2e wall time: ${seconds(Date.now() - started)}`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  say(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
  clearTimeout(hardStop);
}

/**
 * The .vsix holds what an installed extension needs and nothing else.
 * @param {string} vsixPath
 * @returns {SuiteResult}
 */
function checkPackage(vsixPath) {
  const { files, bytes, unexpected } = checkVsixContents(vsixPath);
  const needed = [
    'extension/dist/extension.js',
    'extension/dist/webview.js',
    'extension/dist/highlighter.js',
    'extension/dist/renderWorker.js',
    'extension/dist/mcp-server.js',
    'extension/dist/mcp-server-opening.json',
    'extension/dist/mcp-server-full.js',
    'extension/dist/mermaid.min.js',
    'extension/package.json',
    'extension/extension/media/icon.png',
  ];
  const missing = needed.filter((file) => !files.includes(file));
  say(`== package ==\n${files.length} files, ${(bytes / 1024).toFixed(0)} KiB`);
  const notes = [
    ...unexpected.map((file) => `should not be packaged: ${file}`),
    ...missing.map((file) => `missing from the package: ${file}`),
  ];
  for (const note of notes) say(`  ${note}`);
  return { name: 'package', passed: notes.length === 0 ? 1 : 0, failed: notes.length === 0 ? 0 : 1, ms: 0, notes };
}

/**
 * The mocha suite in test/e2e/suite/, inside code-server's extension host, with the unpacked
 * .vsix as the extension under development.
 * @param {{ extensionDir: string, work: string, grep?: string }} options
 * @returns {Promise<SuiteResult>}
 */
async function runExtensionHostSuite({ extensionDir, work, grep }) {
  say('== extension-host suite ==');
  const started = Date.now();
  const workspace = join(work, 'extension-host-workspace');
  cpSync(FIXTURE_WORKSPACE, workspace, { recursive: true });
  let output = '';
  const tee = new Writable({
    write(chunk, _encoding, done) {
      output += chunk.toString();
      process.stdout.write(chunk, done);
    },
  });
  /** @type {number | undefined} */
  let code;
  /** @type {string | undefined} */
  let problem;
  try {
    code = await runExtensionTests({
      extensionDevelopmentPath: extensionDir,
      extensionTestsPath: join(REPO_ROOT, 'test', 'e2e', 'suite', 'index.js'),
      workspace,
      env: grep ? { REDLINE_E2E_GREP: grep } : undefined,
      timeoutMs: EXTENSION_HOST_TIMEOUT_MS,
      output: tee,
    });
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
    say(problem);
  }
  const ms = Date.now() - started;
  const counted = /redline-e2e-result (\{.*\})/.exec(output);
  if (!counted) {
    return {
      name: 'extension-host',
      passed: 0,
      failed: 1,
      ms,
      notes: [`the suite did not report its result (exit code ${code}): ${problem ?? 'see the output above'}`],
    };
  }
  const { passed, failed } = JSON.parse(counted[1]);
  // A non-zero exit with no failing test (the host crashed after mocha) still fails the run.
  const extra = code !== 0 && failed === 0 ? 1 : 0;
  return {
    name: 'extension-host',
    passed,
    failed: failed + extra,
    ms,
    notes: extra ? [`exit code ${code} although no test failed`] : [],
  };
}

/**
 * Processes started by this run that are still alive: every child inherits RUN_MARKER, even
 * the ones that left their process group (terminal shells). Stopped servers reap their children
 * a moment after stop() returns, so this waits (up to LEFTOVER_GRACE_MS) for the list to empty,
 * then kills whatever is left so that CI does not hang.
 * @param {string} runId
 * @returns {Promise<string[]>}
 */
async function leftoverProcesses(runId) {
  const deadline = Date.now() + LEFTOVER_GRACE_MS;
  let found = markedProcesses(runId);
  while (found.length > 0 && Date.now() < deadline) {
    await sleep(100);
    found = markedProcesses(runId);
  }
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return found.map(({ pid, cmd }) => `${pid} ${cmd.slice(0, 120)}`);
}

/**
 * Live (not zombie) processes whose environment holds this run's marker.
 * @param {string} runId
 * @returns {Array<{ pid: number, cmd: string }>}
 */
function markedProcesses(runId) {
  const needle = `${RUN_MARKER}=${runId}`;
  /** @type {Array<{ pid: number, cmd: string }>} */
  const found = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(needle)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // exited, awaiting its parent
      found.push({ pid, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}

main().catch((error) => {
  say(`e2e: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  say('0 passed, 1 failed');
  process.exitCode = 1;
});
