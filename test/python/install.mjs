// Installs the official Python MCP SDK (test/python/requirements.txt, everything pinned) into a
// virtual environment under <repo>/.cache/python-mcp/, once, the way test/e2e/harness/install.mjs
// installs the VS Code the end-to-end tests drive. test/integration/pythonClient.test.ts runs it.
// CLI: node test/python/install.mjs  (prints {"python": ..., "mcp": ...} on stdout when ready)
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireInstallLock, releaseInstallLock } from '../e2e/harness/installLock.mjs';
import { runBounded } from '../e2e/harness/processes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '../..');
export const CACHE_DIR = join(REPO_ROOT, '.cache', 'python-mcp');
const REQUIREMENTS = join(HERE, 'requirements.txt');
const VENV_DIR = join(CACHE_DIR, 'venv');
const VENV_PYTHON = join(VENV_DIR, 'bin', 'python');
const MARKER = join(CACHE_DIR, 'installed.json');
const LOG_FILE = join(CACHE_DIR, 'install.log');
const LOCK_DIR = join(CACHE_DIR, '.lock');

/** mcp 2.3.0's Requires-Python. */
const MIN_PYTHON = [3, 10];
/** The Python that makes the venv; Debian's python3 needs python3-venv for `-m venv`. */
const BASE_PYTHON = 'python3';
const APT_PACKAGES = ['python3', 'python3-venv'];
const MINUTE = 60_000;

function progress(/** @type {string} */ message) {
  process.stderr.write(`[python-mcp] ${message}\n`);
}

/** The pinned requirements' digest: the marker is current while it matches. */
function requirementsDigest() {
  return createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
}

/** The mcp version requirements.txt pins. */
function pinnedMcpVersion() {
  const pin = /^mcp==(\S+)$/m.exec(readFileSync(REQUIREMENTS, 'utf8'));
  if (!pin) throw new Error(`${REQUIREMENTS} pins no mcp version (a line "mcp==X.Y.Z")`);
  return pin[1];
}

function markerIsCurrent() {
  if (!existsSync(MARKER) || !existsSync(VENV_PYTHON)) return false;
  try {
    return JSON.parse(readFileSync(MARKER, 'utf8')).requirements === requirementsDigest();
  } catch {
    return false;
  }
}

/**
 * Makes sure the venv has exactly the pinned packages, installing them when the marker says
 * otherwise. Never skips: when it cannot install, it throws an Error that says what to run.
 * @returns {Promise<{python: string, mcp: string}>}
 */
export async function ensurePythonMcp() {
  const ready = { python: VENV_PYTHON, mcp: pinnedMcpVersion() };
  if (markerIsCurrent()) return ready;

  mkdirSync(CACHE_DIR, { recursive: true });
  await acquireInstallLock(LOCK_DIR);
  try {
    // Another process may have finished the install while we waited for the lock.
    if (markerIsCurrent()) return ready;
    const started = Date.now();
    progress(`installing mcp ${ready.mcp} into ${VENV_DIR} (log: ${LOG_FILE})`);
    writeFileSync(LOG_FILE, '');
    rmSync(MARKER, { force: true });
    rmSync(VENV_DIR, { recursive: true, force: true });

    const base = await baseInterpreter();
    await makeVenv(base);
    await pipInstall();
    const installed = await installedMcpVersion();
    if (installed !== ready.mcp)
      throw new Error(`pip finished but the venv has mcp ${installed}, expected ${ready.mcp}; see ${LOG_FILE}`);

    const seconds = (Date.now() - started) / 1000;
    writeFileSync(
      MARKER,
      `${JSON.stringify({ requirements: requirementsDigest(), mcp: installed, python: base.version, installedAt: new Date().toISOString(), seconds }, null, 2)}\n`,
    );
    progress(`installed in ${seconds.toFixed(1)} s`);
    return ready;
  } finally {
    releaseInstallLock(LOCK_DIR);
  }
}

/**
 * python3, installed with apt-get when missing and we are root (as CI is); it must be new
 * enough for the pinned mcp.
 * @returns {Promise<{version: string}>}
 */
async function baseInterpreter() {
  let version = await pythonVersion();
  if (version === undefined) {
    await installDebianPackages(`no ${BASE_PYTHON} on PATH`);
    version = await pythonVersion();
    if (version === undefined)
      throw new Error(`apt-get installed ${APT_PACKAGES.join(' ')} but ${BASE_PYTHON} still does not run.`);
  }
  const [major, minor] = version.split('.').map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw new Error(
      `${BASE_PYTHON} is Python ${version}; the Python MCP SDK needs ${MIN_PYTHON.join('.')} or newer. Put a newer python3 first on PATH.`,
    );
  }
  return { version };
}

/** python3's version ("3.11.7"), or undefined when there is none to run. */
function pythonVersion() {
  return new Promise((resolveVersion) => {
    execFile(
      BASE_PYTHON,
      ['-c', 'import platform; print(platform.python_version())'],
      { timeout: MINUTE },
      (error, stdout) => resolveVersion(error ? undefined : stdout.trim()),
    );
  });
}

/**
 * `python3 -m venv`, which on Debian's own python3 needs the python3-venv package for ensurepip;
 * as root, that is installed and the venv made again.
 * @param {{version: string}} base
 */
async function makeVenv(base) {
  const label = `${BASE_PYTHON} -m venv (Python ${base.version})`;
  const args = ['-m', 'venv', VENV_DIR];
  let result = await runBounded(BASE_PYTHON, args, { env: process.env, timeoutMs: 3 * MINUTE, logFile: LOG_FILE });
  if (result.code !== 0 && !result.timedOut && /ensurepip|python3(\.\d+)?-venv/.test(result.tail)) {
    rmSync(VENV_DIR, { recursive: true, force: true });
    await installDebianPackages(`${label} needs ensurepip`);
    result = await runBounded(BASE_PYTHON, args, { env: process.env, timeoutMs: 3 * MINUTE, logFile: LOG_FILE });
  }
  check(label, result, 3 * MINUTE, `${BASE_PYTHON} -m venv '${VENV_DIR}'`);
}

/** @param {string} why */
async function installDebianPackages(why) {
  const manual = `sudo apt-get update && sudo apt-get install -y ${APT_PACKAGES.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The Python client test needs Python ${MIN_PYTHON.join('.')}+ with venv (${why}), and only root can install Debian's. Run: ${manual}`,
    );
  }
  progress(`${why}: installing ${APT_PACKAGES.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  check(
    'apt-get update',
    await runBounded('apt-get', ['update'], { env, timeoutMs: 5 * MINUTE, logFile: LOG_FILE }),
    5 * MINUTE,
    manual,
  );
  check(
    `apt-get install -y ${APT_PACKAGES.join(' ')}`,
    await runBounded('apt-get', ['install', '-y', ...APT_PACKAGES], { env, timeoutMs: 10 * MINUTE, logFile: LOG_FILE }),
    10 * MINUTE,
    manual,
  );
}

async function pipInstall() {
  // One retry, not pip's five with back-off: an index that cannot be reached answers at once,
  // and five back-off retries for each of some thirty packages add minutes to every first run
  // where one of the configured indexes is out of reach. One retry still rides out a dropped connection.
  const args = [
    '-m',
    'pip',
    'install',
    '--no-input',
    '--disable-pip-version-check',
    '--retries',
    '1',
    '-r',
    REQUIREMENTS,
  ];
  progress('pip install -r test/python/requirements.txt ...');
  const started = Date.now();
  const result = await runBounded(VENV_PYTHON, args, {
    env: withoutVirtualEnv(process.env),
    timeoutMs: 10 * MINUTE,
    logFile: LOG_FILE,
  });
  check('pip install', result, 10 * MINUTE, `'${VENV_PYTHON}' ${args.join(' ')}  (needs PyPI)`);
  progress(`pip install: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** @returns {Promise<string>} */
async function installedMcpVersion() {
  return new Promise((resolveVersion, reject) => {
    execFile(
      VENV_PYTHON,
      ['-c', 'from importlib.metadata import version; print(version("mcp"))'],
      { timeout: MINUTE },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`The venv cannot tell its mcp version: ${stderr || error.message}`))
          : resolveVersion(stdout.trim()),
    );
  });
}

/**
 * The environment without an outer virtual environment's or pip's own install target, which
 * would send the packages somewhere other than our venv.
 * @param {NodeJS.ProcessEnv} env
 */
function withoutVirtualEnv(env) {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !['VIRTUAL_ENV', 'PYTHONHOME', 'PIP_TARGET', 'PIP_PREFIX', 'PIP_USER'].includes(name),
    ),
  );
}

/**
 * Throws, naming the command to run by hand, unless the step exited 0.
 * @param {string} label
 * @param {{code: number | null, signal: NodeJS.Signals | null, timedOut: boolean, tail: string}} result
 * @param {number} timeoutMs
 * @param {string} manual
 */
function check(label, result, timeoutMs, manual) {
  if (result.timedOut) {
    throw new Error(
      `${label} did not finish within ${timeoutMs / 1000} s (network down?). Run: ${manual}\n--- last output (${LOG_FILE}) ---\n${result.tail}`,
    );
  }
  if (result.code !== 0) {
    throw new Error(
      `${label} failed (exit ${result.code ?? result.signal}). Run: ${manual}\n--- last output (${LOG_FILE}) ---\n${result.tail}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensurePythonMcp().then(
    (ready) => process.stdout.write(`${JSON.stringify(ready)}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
