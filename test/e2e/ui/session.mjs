// One Redline window for the UI suite: code-server with the packaged extension, the fixture
// workspace open in chromium, and an MCP server started the way an assistant starts it (from a
// terminal's environment), with an SDK Client connected to it over stdio.
import { randomUUID } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { startCodeServer } from '../harness/codeServer.mjs';
import { descendants, makeTempDir, removeTempDir, runEnvironment, sleep } from '../harness/processes.mjs';
import {
  closeWorkbench,
  findWebviewFrame,
  openWorkbench,
  readTerminalEnv,
  runCommand,
  screenshot,
} from '../harness/workbench.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Frame} Frame */

const TOOL_TIMEOUT_MS = WAIT_DEADLINE_MS;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish']);

/**
 * @typedef {object} SessionOptions
 * @property {string} extensionsDir     has the .vsix installed
 * @property {string} serverPath        the installed extension's dist/mcp-server.js
 * @property {string} workspaceTemplate copied, so that the tests never touch the fixture
 * @property {NodeJS.ProcessEnv} [env] more environment for code-server and its extension hosts
 * @property {string} [assistant]      the MCP client name of the session's assistant (its tab, its comments' author)
 * @property {Record<string, unknown>} [settings] user settings, over the quiet ones
 * @property {Array<[string, string]>} [payload] workbench payload entries (the bench's `inspect-extensions`,
 *   which the workbench reads only with the smoke-test driver on)
 * @property {boolean} [smokeTestDriver] default false: the window looks as it does for a user (toasts shown)
 */

/** @type {RedlineSession | undefined} */
let current;

/** The session the root hooks opened. */
export function session() {
  if (!current) throw new Error("No Redline session: the UI suite's root hook did not open one");
  return current;
}

/** @param {SessionOptions} options */
export async function openSession(options) {
  current = await RedlineSession.open(options);
  return current;
}

/**
 * A window of its own for the describe that calls this, with Redline as the suite installed it:
 * opened in a before hook (registered first, so it runs before the describe's own), and closed in
 * an after hook, also when it was still opening as the before hook gave up.
 * @param {Omit<SessionOptions, 'extensionsDir' | 'serverPath'>} options
 * @returns {() => RedlineSession} the window, once the before hook has run
 */
export function windowOfItsOwn(options) {
  /** @type {RedlineSession | undefined} */
  let opened;
  /** @type {Promise<RedlineSession> | undefined} */
  let opening;
  before(async function () {
    const main = session();
    opening = RedlineSession.open({
      extensionsDir: /** @type {any} */ (main.server).extensionsDir,
      serverPath: /** @type {string} */ (main.serverPath),
      ...options,
    });
    opened = await opening;
  });
  after(async function () {
    opened ??= await opening?.catch(() => undefined);
    await opened?.close();
  });
  return () => /** @type {RedlineSession} */ (opened);
}

export async function closeSession() {
  const closing = current;
  current = undefined;
  await closing?.close();
}

/**
 * Polls `probe` until it returns something truthy, and returns that; throws naming `what` once
 * `timeoutMs` has passed. For conditions nothing announces (a process exit, a host's state).
 * @template T @param {() => T | Promise<T>} probe @param {string} what @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
export async function waitFor(probe, what, timeoutMs = WAIT_DEADLINE_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}

export class RedlineSession {
  /** @type {string[]} every console message of every frame, as "[type] text (url)" */
  consoleMessages = [];
  /** @type {string[]} browser dialogs (alert, confirm, prompt, beforeunload) */
  dialogs = [];
  /** @type {string[]} pages (windows, tabs) opened by the workbench or the webview */
  popups = [];
  /** @type {string[]} responses with status >= 400 for the extension's own files */
  failedExtensionResources = [];
  /** @type {Record<string, string>} figures for the run's summary */
  figures = {};

  /**
   * @param {SessionOptions} options
   * @returns {Promise<RedlineSession>}
   */
  static async open(options) {
    const self = new RedlineSession();
    self.tempDir = makeTempDir('redline-e2e-ui-');
    try {
      await self.start(options);
      return self;
    } catch (error) {
      if (self.page) await self.screenshot('setup-failed').catch(() => {});
      await self.close();
      throw error;
    }
  }

  /** @param {SessionOptions} options */
  async start({
    extensionsDir,
    serverPath,
    workspaceTemplate,
    env,
    settings,
    assistant = 'redline-e2e-ui',
    payload,
    smokeTestDriver = false,
  }) {
    this.workspace = join(/** @type {string} */ (this.tempDir), 'workspace');
    cpSync(workspaceTemplate, this.workspace, { recursive: true });
    // Without the smoke-test driver, which the extension-host suite needs but which hides
    // notification toasts: this window should look the way it does for a user.
    this.server = await startCodeServer({
      extensionsDir,
      workspace: this.workspace,
      smokeTestDriver,
      env,
      settings,
    });
    /** @type {Page} */
    this.page = await openWorkbench(this.server.url, this.workspace, {
      payload,
      beforeGoto: (page) => this.watch(page),
    });
    await this.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: this.server.url });

    // The command activates Redline if onStartupFinished has not yet, so the terminal opened
    // next is one of "every integrated terminal" that gets the bridge's variables.
    await runCommand(this.page, 'Redline: Show Review');
    // The temp and runtime dirs too: a server started in a terminal inherits them, and discovery looks under them.
    this.terminalEnv = await readTerminalEnv(this.page, [
      'REDLINE_IPC_PATH',
      'REDLINE_IPC_TOKEN',
      'TMPDIR',
      'XDG_RUNTIME_DIR',
    ]);
    const { REDLINE_IPC_PATH, REDLINE_IPC_TOKEN } = this.terminalEnv;
    if (!REDLINE_IPC_PATH || !REDLINE_IPC_TOKEN) {
      throw new Error(`A new terminal lacks the bridge's variables: ${JSON.stringify(this.terminalEnv)}`);
    }
    // The terminal panel has done its job; the review and the editors get the room.
    await runCommand(this.page, 'View: Toggle Panel Visibility');

    this.serverPath = serverPath;
    this.mcpStderr = '';
    this.mcp = await this.connectAssistant(assistant, (chunk) => {
      this.mcpStderr = (this.mcpStderr + chunk).slice(-4000);
    });
  }

  /**
   * Starts another MCP server for this window, as a second assistant in another terminal would,
   * and connects to it as the MCP client `name`.
   * @param {string} name @param {(chunk: string) => void} [onStderr]
   * @returns {Promise<Client>}
   */
  async connectAssistant(name, onStderr = () => {}) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [/** @type {string} */ (this.serverPath)],
      cwd: this.workspace,
      env: this.assistantEnv(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk) => onStderr(chunk.toString('utf8')));
    // Probing server/discover first, as Claude Code does: with Redline it speaks 2026-07-28.
    const client = new Client({ name, version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    return client;
  }

  /**
   * The environment an assistant started in this window's terminal gives its MCP server.
   * @returns {Record<string, string>}
   */
  assistantEnv() {
    const { REDLINE_IPC_PATH, REDLINE_IPC_TOKEN, TMPDIR, XDG_RUNTIME_DIR } = /** @type {Record<string, string>} */ (
      this.terminalEnv
    );
    return {
      PATH: process.env.PATH ?? '',
      REDLINE_IPC_PATH,
      REDLINE_IPC_TOKEN,
      // Routine events on stderr too: tests read its request and connected lines.
      REDLINE_LOG: 'debug',
      ...(TMPDIR ? { TMPDIR } : {}),
      ...(XDG_RUNTIME_DIR ? { XDG_RUNTIME_DIR } : {}),
      ...runEnvironment(),
      // The bench's, for a window it loads past the usual waits.
      ...(process.env.REDLINE_TIMEOUT_MS ? { REDLINE_TIMEOUT_MS: process.env.REDLINE_TIMEOUT_MS } : {}),
    };
  }

  /** The private directory that holds the windows' sockets and discovery files. */
  get discoveryDirectory() {
    return dirname(/** @type {string} */ (this.terminalEnv?.REDLINE_IPC_PATH));
  }

  /**
   * The discovery files of live extension hosts, as parsed JSON with `file`.
   * @returns {Array<{ pid: number, folders: string[], socketPath: string, token: string, editor: string, started: number, terminals: number[], file: string }>}
   */
  discoveryFiles() {
    const directory = this.discoveryDirectory;
    return readdirSync(directory)
      .filter((name) => /^window-\d+-[0-9a-f]+\.json$/.test(name))
      .map((name) => ({ ...JSON.parse(readFileSync(join(directory, name), 'utf8')), file: join(directory, name) }))
      .filter((record) => isAlive(record.pid));
  }

  /** The newest live host with `folder` open (this session's workspace by default): its token changes with every reload. @param {string} [folder] */
  windowOf(folder = /** @type {string} */ (this.workspace)) {
    return this.discoveryFiles()
      .filter((record) => record.folders.includes(folder))
      .sort((a, b) => b.started - a.started)[0];
  }

  /** Records what the page and all its frames do that a test may need to rule out. @param {Page} page */
  async watch(page) {
    page.on('console', (message) => {
      this.consoleMessages.push(`[${message.type()}] ${message.text()} (${message.location().url})`);
    });
    page.on('dialog', (dialog) => {
      this.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => {});
    });
    page.context().on('page', (opened) => {
      this.popups.push(opened.url());
      void opened.close().catch(() => {});
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && /redline/i.test(response.url())) {
        this.failedExtensionResources.push(`${response.status()} ${response.url()}`);
      }
    });
  }

  /**
   * Calls an MCP tool and returns its structured result; a tool error becomes a thrown Error.
   * @param {string} name @param {Record<string, unknown>} [args]
   * @returns {Promise<any>}
   */
  async call(name, args = {}) {
    const result = await this.rawCall(name, args);
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  }

  /**
   * The raw CallToolResult, tool errors included; a dead server's stderr is in the error.
   * @param {string} name @param {Record<string, unknown>} [args]
   */
  async rawCall(name, args = {}) {
    try {
      return await /** @type {Client} */ (this.mcp).callTool({ name, arguments: args }, { timeout: TOOL_TIMEOUT_MS });
    } catch (error) {
      /** @type {Error} */ (error).message += `\n--- MCP server stderr ---\n${this.mcpStderr?.trim() || '(empty)'}`;
      throw error;
    }
  }

  /**
   * The webview frame of the review panel (the one with #review); found again after the
   * webview reloads (it is not kept alive while hidden, and a window reload replaces it).
   * @param {{ timeoutMs?: number }} [options]
   * @returns {Promise<Frame>}
   */
  async reviewFrame({ timeoutMs = WAIT_DEADLINE_MS } = {}) {
    if (this.frame && !this.frame.isDetached()) return this.frame;
    this.frame = await findWebviewFrame(this.page, '#review', { timeoutMs });
    return this.frame;
  }

  /**
   * Waits until the panel's text contains `text`, polling on every animation frame.
   * @param {string} text @param {{ timeoutMs?: number }} [options]
   */
  async waitForReviewText(text, { timeoutMs = WAIT_DEADLINE_MS } = {}) {
    const frame = await this.reviewFrame();
    await frame.waitForFunction(
      (wanted) => document.getElementById('review')?.textContent?.includes(wanted) ?? false,
      text,
      { polling: 'raf', timeout: timeoutMs },
    );
    return frame;
  }

  /** The label of the active tab in the focused editor group. */
  async activeEditorTab() {
    return (await this.page.locator('.editor-group-container.active .tab.active').first().innerText()).replace(
      /\s+/g,
      '',
    );
  }

  /** The status bar's cursor item, e.g. "Ln 10, Col 1 (243 selected)". */
  async cursorStatus() {
    return (
      await this.page
        .locator('.statusbar-item')
        .filter({ hasText: /Ln \d+, Col \d+/ })
        .first()
        .innerText()
    ).trim();
  }

  /**
   * Waits for the status bar's cursor item to read `Ln <line>, Col <column>` (and "(<n> selected)"
   * when given): the text editor is active with its cursor there. On a timeout the error says what
   * the workbench showed instead, with a screenshot, so that a failure in CI explains itself.
   * @param {number} line
   * @param {{ column?: number, selected?: number, timeoutMs?: number }} [options]
   */
  async waitForCursor(line, { column = 1, selected, timeoutMs = WAIT_DEADLINE_MS } = {}) {
    const wanted = `Ln ${line}, Col ${column}` + (selected === undefined ? '' : ` (${selected} selected)`);
    const escaped = wanted.replace(/[()]/g, '\\$&');
    try {
      await this.page
        .locator('.statusbar-item', { hasText: new RegExp(`${escaped}(?!\\d)`) })
        .waitFor({ state: 'visible', timeout: timeoutMs });
    } catch (error) {
      throw new Error(`The status bar never read "${wanted}": ${await this._cursorReport()}`, { cause: error });
    }
  }

  /** What the workbench shows of the cursor and the focus, for an error. */
  async _cursorReport() {
    const name = `cursor-timeout-${Date.now()}`;
    await this.screenshot(name).catch(() => {});
    const shown = await this.page.evaluate(() => {
      const cursor = [...document.querySelectorAll('.statusbar-item')]
        .map((item) => item.textContent?.trim() ?? '')
        .find((text) => /Ln \d+, Col \d+/.test(text));
      const focused = document.activeElement;
      return {
        cursor: cursor ?? 'none (the active editor is not a text editor)',
        activeTab: document.querySelector('.editor-group-container.active .tab.active')?.textContent?.trim(),
        focus: focused ? `${focused.tagName.toLowerCase()}.${[...focused.classList].join('.')}` : 'none',
      };
    });
    return `it read ${shown.cursor}; active tab ${shown.activeTab}; focus in ${shown.focus}; screenshot e2e-ui-${name}.png`;
  }

  /** Labels of every open editor tab, in every group. */
  async editorTabs() {
    return (await this.page.locator('.tabs-container .tab').allInnerTexts()).map((label) => label.replace(/\s+/g, ''));
  }

  /**
   * Extension host processes under code-server. A page load starts a new one and the old one
   * lives on for the reconnection grace time, still holding its socket and its state.
   */
  extensionHostPids() {
    return descendants(this.server.pid).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--type=extensionHost');
      } catch {
        return false;
      }
    });
  }

  /**
   * After a reload: waits until the old extension host has exited, so that whatever answers
   * the assistant from now on is the new window's host, which read its state from disk.
   * @param {{ timeoutMs?: number }} [options]
   */
  async waitForOneExtensionHost({ timeoutMs = WAIT_DEADLINE_MS } = {}) {
    await waitFor(
      () => this.extensionHostPids().length === 1,
      'the old extension host to exit after the reload',
      timeoutMs,
    );
  }

  /**
   * Waits until the window's bridge answers the assistant's MCP server again, as an assistant
   * that retries would: after a reload the panel can be back before the bridge is listening.
   * @param {{ timeoutMs?: number }} [options]
   */
  async waitForBridge({ timeoutMs = WAIT_DEADLINE_MS } = {}) {
    await waitFor(
      async () => (await this.rawCall('get-review')).isError !== true,
      "the window's bridge to answer get-review",
      timeoutMs,
    );
  }

  /**
   * The text of an output channel, as the user sees it in the Output view (copied from its
   * editor, since the editor only renders the lines in view).
   * @param {string} channel e.g. 'Redline'
   */
  async outputChannelText(channel) {
    await runCommand(this.page, 'Output: Show Output Channels...', { opensPicker: true });
    const widget = this.page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^\\s*${channel}\\s*$`) }) })
      .first()
      .click();
    await widget.waitFor({ state: 'hidden' });
    const editor = this.page.locator('.part.panel .output-view .monaco-editor .view-lines').first();
    await editor.waitFor({ state: 'visible' });
    await editor.click();
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.press('Control+C');
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /**
   * The lines of the Redline log: the file behind its Output channel, read without touching the
   * window (reading it through the Output view would move the focus).
   */
  redlineLogLines() {
    const logs = join(/** @type {any} */ (this.server).userDataDir, 'logs');
    // A reload starts a new log folder, named by its time: in order, the lines are in time order.
    return readdirSync(logs, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('Redline.log'))
      .sort()
      .flatMap((name) => readFileSync(join(logs, name), 'utf8').split('\n'))
      .filter((line) => line !== '');
  }

  /** Pids of the shells running under code-server: one per integrated terminal. */
  shellPids() {
    return descendants(this.server.pid).filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        // VS Code's own helpers are not terminals: the pty host samples its terminals' CPU through
        // `sh -c …/vs/base/node/cpuUsage.sh` now and then, and built-in extensions run `sh -c ps` and `sh -c ls`.
        if (
          argv.some((arg) => /\/vs\/base\/node\/[\w-]+\.sh\b/.test(arg)) ||
          (argv[1] === '-c' && /^(\/usr\/bin\/|\/bin\/)?(ps|ls)\b/.test(argv[2] ?? ''))
        )
          return false;
        return SHELLS.has(argv[0]?.split('/').pop() ?? '');
      } catch {
        return false;
      }
    });
  }

  /** A screenshot in test-artifacts/e2e-ui-<name>.png. @param {string} name */
  screenshot(name) {
    return screenshot(this.page, `e2e-ui-${name}`);
  }

  /** A marker no earlier review contains. @param {string} label */
  static marker(label) {
    return `${label}-${randomUUID().slice(0, 8)}`;
  }

  async close() {
    await this.mcp?.close().catch(() => {});
    await closeWorkbench(this.page);
    await this.server?.stop();
    // mcp.close() above waited for the MCP server's process to exit, so its cwd can go now.
    if (this.tempDir) removeTempDir(this.tempDir);
  }
}

/** @param {number} pid */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
