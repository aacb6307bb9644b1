// Starts and stops code-server (a real VS Code server with its web workbench)
// for one test run: private dirs, a free loopback port, and no process left behind.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { ensureTestVsCode } from './install.mjs';
import {
  descendants,
  isAlive,
  killGroup,
  makeTempDir,
  removeTempDir,
  runBounded,
  settlesWithin,
  sleep,
  trackGroup,
  untrackGroup,
} from './processes.mjs';

/** User settings that keep the workbench quiet and the screenshots stable. */
export const QUIET_SETTINGS = Object.freeze({
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'chat.disableAIFeatures': true,
  'terminal.integrated.gpuAcceleration': 'off',
  // Its popup would take the Enter meant for the shell in readTerminalEnv().
  'terminal.integrated.suggest.enabled': false,
  // The timing test scrolls a Markdown preview to its last heading; in step with its editor, the
  // editor would scroll it back.
  'markdown.preview.scrollEditorWithPreview': false,
  'markdown.preview.scrollPreviewWithEditor': false,
});

const SERVER_FLAGS = [
  '--auth',
  'none',
  '--disable-telemetry',
  '--disable-update-check',
  '--disable-workspace-trust',
  '--disable-getting-started-override',
  '--ignore-last-opened',
  '--reconnection-grace-time',
  '5',
];
// Without it, a workbench URL's extensionTestsPath payload hangs. It also hides notification
// toasts (they go only to the notification center), so UI tests can turn it off.
const SMOKE_TEST_DRIVER_FLAGS = ['--vscode-option', 'enable-smoke-test-driver'];

/**
 * @typedef {object} CodeServer
 * @property {string} url            e.g. http://127.0.0.1:43121 (no trailing slash)
 * @property {number} port
 * @property {number} pid
 * @property {string} userDataDir
 * @property {string} extensionsDir
 * @property {string} logFile        code-server's own output (removed by stop(); E2E_VERBOSE echoes it to stderr)
 * @property {number} startupMs      from spawn to the first good /healthz
 * @property {() => Promise<void>} stop  kills the server and everything it started; safe to call twice
 */

/**
 * @typedef {object} StartOptions
 * @property {string} [extensionsDir]  default: a fresh temp dir
 * @property {string} [userDataDir]    default: a fresh temp dir
 * @property {string} [workspace]      folder code-server opens when the URL names none
 * @property {NodeJS.ProcessEnv} [env] extra environment for the server, its extension hosts and terminals
 * @property {Record<string, unknown>} [settings] merged over QUIET_SETTINGS
 * @property {number} [timeoutMs]      for /healthz; default 30 s
 * @property {boolean} [echo]          copy code-server's output to stderr (default: env E2E_VERBOSE)
 * @property {boolean} [smokeTestDriver] default true; extensionTestsPath runs need it, and it hides notification toasts
 * @property {boolean} [userSession]   the user's own HOME and temp folder, for `npm start`: an assistant started in the
 *   window's terminal sees the user's config and login, and a command line in any terminal finds the window. Tests
 *   leave it off, so that nothing reaches the real home or the machine's other windows.
 */

/**
 * Starts code-server on a free 127.0.0.1 port and waits for /healthz.
 * @param {StartOptions} [options]
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer(options = {}) {
  const installed = await ensureTestVsCode({ testTools: false });
  const sessionDir = makeTempDir('redline-code-server-');
  const userDataDir = options.userDataDir ? resolve(options.userDataDir) : join(sessionDir, 'user-data');
  const extensionsDir = options.extensionsDir ? resolve(options.extensionsDir) : join(sessionDir, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  const userSession = options.userSession ?? false;
  writeSettings(userDataDir, {
    ...QUIET_SETTINGS,
    ...(userSession ? { 'terminal.integrated.env.linux': usersOwnVariables() } : {}),
    ...options.settings,
  });
  const env = serverEnv(installed.nodePath, sessionDir, { extra: options.env, userSession });
  const logFile = join(sessionDir, 'code-server.log');
  const echo = options.echo ?? Boolean(process.env.E2E_VERBOSE);

  /** @type {Error | undefined} */
  let lastError;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const args = [
      installed.codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      ...SERVER_FLAGS,
      ...(options.smokeTestDriver === false ? [] : SMOKE_TEST_DRIVER_FLAGS),
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      ...(options.workspace ? [resolve(options.workspace)] : []),
    ];
    const started = Date.now();
    const child = spawn(installed.nodePath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = /** @type {number} */ (child.pid);
    trackGroup(pid);
    let output = '';
    const onData = (/** @type {Buffer} */ chunk) => {
      appendFileSync(logFile, chunk);
      output = (output + chunk.toString('utf8')).slice(-4000);
      if (echo) process.stderr.write(chunk);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    /** @type {Promise<void>} */
    const exited = new Promise((resolveExit) => {
      child.once('exit', () => resolveExit());
      child.once('error', (error) => {
        output += `\n${error.message}`;
        resolveExit();
      });
    });
    let hasExited = false;
    void exited.then(() => {
      hasExited = true;
    });

    let stopping = /** @type {Promise<void> | undefined} */ (undefined);
    const stop = () => {
      stopping ??= stopProcessTree(pid, exited, () => hasExited).then(() => {
        untrackGroup(pid);
        removeTempDir(sessionDir);
      });
      return stopping;
    };

    try {
      await waitForHealthz(port, options.timeoutMs ?? 30_000, () => hasExited);
    } catch (error) {
      await stopProcessTree(pid, exited, () => hasExited);
      untrackGroup(pid);
      lastError = new Error(
        `code-server did not come up on port ${port}: ${/** @type {Error} */ (error).message}\n--- code-server output ---\n${output.trim()}`,
      );
      if (/EADDRINUSE/.test(output)) continue; // Lost the race for the port; try another.
      removeTempDir(sessionDir);
      throw lastError;
    }
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      pid,
      userDataDir,
      extensionsDir,
      logFile,
      startupMs: Date.now() - started,
      stop,
    };
  }
  removeTempDir(sessionDir);
  throw lastError ?? new Error('code-server did not start');
}

/**
 * Installs a .vsix into an extensions dir with code-server's own installer.
 * @param {string} vsixPath
 * @param {string} extensionsDir
 * @returns {Promise<void>}
 */
export async function installVsix(vsixPath, extensionsDir) {
  await runCli(
    ['--extensions-dir', resolve(extensionsDir), '--install-extension', resolve(vsixPath), '--force'],
    'install',
  );
}

/**
 * The extensions code-server sees in an extensions dir, as `publisher.name@version`.
 * @param {string} extensionsDir
 * @returns {Promise<string[]>}
 */
export async function listExtensions(extensionsDir) {
  const output = await runCli(
    ['--extensions-dir', resolve(extensionsDir), '--list-extensions', '--show-versions'],
    'list',
  );
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^[\w-]+\.[\w-]+@/.test(line));
}

/** @param {string[]} args @param {string} what @returns {Promise<string>} */
async function runCli(args, what) {
  const installed = await ensureTestVsCode({ testTools: false });
  const sessionDir = makeTempDir('redline-code-server-cli-');
  try {
    const logFile = join(sessionDir, 'cli.log');
    const result = await runBounded(
      installed.nodePath,
      [installed.codeServerEntry, '--user-data-dir', join(sessionDir, 'user-data'), ...args],
      { env: serverEnv(installed.nodePath, sessionDir), timeoutMs: 120_000, logFile },
    );
    if (result.timedOut || result.code !== 0) {
      throw new Error(
        `code-server ${what} failed (${result.timedOut ? 'timed out after 120 s' : `exit ${result.code ?? result.signal}`}): code-server ${args.join(' ')}\n${result.tail}`,
      );
    }
    return result.tail;
  } finally {
    removeTempDir(sessionDir);
  }
}

/** What serverEnv() sets for code-server's own files, and a user session's terminals get back as they were. */
const PRIVATE_XDG = /** @type {const} */ ({
  XDG_CONFIG_HOME: 'xdg-config',
  XDG_DATA_HOME: 'xdg-data',
  XDG_CACHE_HOME: 'xdg-cache',
  XDG_STATE_HOME: 'xdg-state',
});

/**
 * Node 24 first on PATH (code-server and its extension hosts need it), and XDG dirs of our own so
 * that code-server writes nothing to the user's config. Tests also get a temp dir and a HOME of
 * their own, so that nothing is left in /tmp or written to $HOME; a user session keeps both.
 * @param {string} nodePath @param {string} sessionDir
 * @param {{ extra?: NodeJS.ProcessEnv, userSession?: boolean }} [options]
 * @returns {NodeJS.ProcessEnv}
 */
function serverEnv(nodePath, sessionDir, { extra, userSession = false } = {}) {
  // A gallery without a serviceUrl turns the marketplace off, so the workbench
  // does not try to reach open-vsx.org (unreachable here) for update checks.
  /** @type {NodeJS.ProcessEnv} */
  const env = { EXTENSIONS_GALLERY: '{}', ...process.env };
  // A parent's NODE_OPTIONS (jest, a debugger) would be applied to code-server too.
  delete env.NODE_OPTIONS;
  // npm's own variables (npm start) would change what npm does in the window's terminals.
  if (userSession) for (const name of Object.keys(env)) if (/^npm_/i.test(name)) delete env[name];
  for (const name of [...Object.values(PRIVATE_XDG), 'tmp', 'home'])
    mkdirSync(join(sessionDir, name), { recursive: true, mode: 0o700 });
  return {
    ...env,
    ...extra,
    PATH: `${dirname(nodePath)}:${extra?.PATH ?? env.PATH ?? ''}`,
    ...Object.fromEntries(Object.entries(PRIVATE_XDG).map(([name, dir]) => [name, join(sessionDir, dir)])),
    ...(userSession
      ? {}
      : {
          // VS Code puts its IPC sockets (vscode-ipc-*.sock, vscode-git-*.sock) in
          // the temp dir and leaves them behind; this one is removed on stop().
          TMPDIR: join(sessionDir, 'tmp'),
          // Redline writes ~/.redline/mcp-server.js, and "Connect an Assistant" writes assistants'
          // configs under ~: a home of the session's own keeps both out of the real one.
          HOME: join(sessionDir, 'home'),
        }),
  };
}

/**
 * For a user session's terminals (terminal.integrated.env.linux): the user's own XDG dirs back,
 * and no marketplace switch, so that git, gh or an assistant there read the user's config. null
 * removes a variable the user does not have.
 * @returns {Record<string, string | null>}
 */
function usersOwnVariables() {
  return Object.fromEntries(
    [...Object.keys(PRIVATE_XDG), 'EXTENSIONS_GALLERY'].map((name) => [name, process.env[name] ?? null]),
  );
}

/** @param {string} userDataDir @param {Record<string, unknown>} settings */
function writeSettings(userDataDir, settings) {
  const userDir = join(userDataDir, 'User');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * @param {number} port @param {number} timeoutMs @param {() => boolean} hasExited
 * @returns {Promise<void>}
 */
async function waitForHealthz(port, timeoutMs, hasExited) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error('the process exited');
    if (await healthzOk(port)) return;
    await sleep(100);
  }
  throw new Error(`no good /healthz answer within ${timeoutMs / 1000} s`);
}

/** @param {number} port @returns {Promise<boolean>} */
function healthzOk(port) {
  return new Promise((resolveOk) => {
    const request = get({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (response) => {
      response.resume();
      resolveOk(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolveOk(false));
  });
}

/**
 * SIGTERM to the group, then SIGKILL to the group and to any descendant that
 * left it (terminal shells run in their own sessions).
 * @param {number} pid @param {Promise<void>} exited @param {() => boolean} hasExited
 */
async function stopProcessTree(pid, exited, hasExited) {
  const tree = hasExited() ? [] : descendants(pid);
  killGroup(pid, 'SIGTERM');
  await settlesWithin(exited, 5000);
  killGroup(pid, 'SIGKILL');
  for (const child of [...tree, ...descendants(pid)]) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + 3000;
  while ([pid, ...tree].some(isAlive) && Date.now() < deadline) await sleep(50);
}
