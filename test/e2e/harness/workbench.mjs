// Drives code-server's web workbench with Playwright in Debian's chromium, the
// way a person would: F1 for commands, webview frames, status bar, terminal.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, REPO_ROOT } from './install.mjs';
import { makeTempDir, removeTempDir, sleep } from './processes.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Frame} Frame */
/** @typedef {import('playwright-core').Browser} Browser */

export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-artifacts');

// Without the networking flags chromium keeps dialing hosts this machine cannot reach.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * @typedef {object} WorkbenchTiming
 * @property {number} loadMs     goto() until the page's load event
 * @property {number} visibleMs  goto() until .monaco-workbench is visible
 */

/** @type {WeakMap<Page, WorkbenchTiming>} */
const timings = new WeakMap();

/**
 * @typedef {object} OpenOptions
 * @property {Array<[string, string]>} [payload]  workbench payload entries (see extensionTests.mjs)
 * @property {(page: Page) => Promise<void>} [beforeGoto]  e.g. page.exposeFunction(...)
 * @property {{width: number, height: number}} [viewport]  default 1280x800
 * @property {number} [timeoutMs]  for the workbench to show; by default the wait deadline of test/support/deadlines.cjs
 */

/**
 * Opens the workbench of a running code-server in a fresh headless chromium.
 * Close it with closeWorkbench(page).
 * @param {string} url     the server's base URL (CodeServer.url)
 * @param {string} [folder] absolute folder to open
 * @param {OpenOptions} [options]
 * @returns {Promise<Page>}
 */
export async function openWorkbench(url, folder, options = {}) {
  // Chromium writes crash-report settings and a dconf cache under the XDG
  // dirs even with its own profile dir; keep them out of $HOME.
  const xdgDir = makeTempDir('redline-chromium-');
  const env = { ...process.env, XDG_CONFIG_HOME: join(xdgDir, 'config'), XDG_CACHE_HOME: join(xdgDir, 'cache') };
  /** @type {Browser} */
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
      timeout: WAIT_DEADLINE_MS,
      env,
    });
  } catch (error) {
    removeTempDir(xdgDir);
    throw error;
  }
  browser.on('disconnected', () => removeTempDir(xdgDir));
  try {
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    const page = await context.newPage();
    // Every wait of a test's (a locator, a click) counts as hung only at the deadline of test/support/deadlines.cjs.
    page.setDefaultTimeout(WAIT_DEADLINE_MS);
    if (process.env.E2E_VERBOSE) {
      page.on('console', (message) => process.stderr.write(`[browser ${message.type()}] ${message.text()}\n`));
    }
    await options.beforeGoto?.(page);
    const timeoutMs = options.timeoutMs ?? WAIT_DEADLINE_MS;
    const started = Date.now();
    await page.goto(workbenchUrl(url, folder, options.payload), { waitUntil: 'load', timeout: timeoutMs });
    const loadMs = Date.now() - started;
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
    timings.set(page, { loadMs, visibleMs: Date.now() - started });
    return page;
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
}

/**
 * `?folder=` and `?payload=` URL for the workbench.
 * @param {string} url @param {string} [folder] @param {Array<[string, string]>} [payload]
 */
export function workbenchUrl(url, folder, payload) {
  const target = new URL(url);
  if (folder) target.searchParams.set('folder', resolve(folder));
  if (payload) target.searchParams.set('payload', JSON.stringify(payload));
  return target.toString();
}

/** How long openWorkbench() took for this page. @param {Page} page @returns {WorkbenchTiming | undefined} */
export function workbenchTiming(page) {
  return timings.get(page);
}

/** Closes the browser that openWorkbench() launched. @param {Page | undefined} page */
export async function closeWorkbench(page) {
  const browser = page?.context().browser();
  if (browser) await browser.close().catch(() => {});
}

/**
 * Runs a command from the command palette by its label, e.g. 'Redline: Show Review'.
 * `opensPicker`: the command shows a quick pick of its own, so the widget stays open.
 * @param {Page} page @param {string} title @param {{timeoutMs?: number, opensPicker?: boolean}} [options]
 */
export async function runCommand(page, title, { timeoutMs = WAIT_DEADLINE_MS, opensPicker = false } = {}) {
  const deadline = Date.now() + timeoutMs;
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input[type="text"], input:not([type])').first();
  // Pick the row whose label is exactly the title, not merely the first fuzzy match.
  const row = widget
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }) })
    .first();
  // The palette lists the commands known when it opens; an extension's commands appear only
  // once the remote extension host has registered it. And it closes when something else takes
  // focus (a webview that just loaded). So open it again until the command shows up.
  for (;;) {
    const attemptMs = () => Math.max(1, Math.min(5000, deadline - Date.now()));
    try {
      await page.keyboard.press('F1');
      await input.fill(`>${title}`, { timeout: attemptMs() });
      await row.waitFor({ state: 'visible', timeout: Math.min(3000, attemptMs()) });
      // The palette can still close between seeing the row and clicking it; then try again.
      await row.click({ timeout: Math.min(3000, attemptMs()) });
      break;
    } catch (error) {
      const offered = await widget
        .locator('.quick-input-list .monaco-list-row .label-name')
        .allInnerTexts()
        .catch(() => []);
      if (await widget.isVisible().catch(() => false)) await page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
      if (Date.now() >= deadline) {
        const why =
          offered.length > 0
            ? `Offered: ${JSON.stringify(offered.slice(0, 10))}`
            : `Last error: ${/** @type {Error} */ (error).message.split('\n')[0]}`;
        throw new Error(`No command "${title}" in the command palette within ${timeoutMs / 1000} s. ${why}`);
      }
    }
  }
  if (opensPicker) {
    // The palette's own input starts with '>'; the command's picker has its own.
    await page.waitForFunction(
      () => {
        const input = document.querySelector('.quick-input-widget input');
        return input instanceof HTMLInputElement && !input.value.startsWith('>');
      },
      undefined,
      { timeout: Math.max(5000, deadline - Date.now()) },
    );
    return;
  }
  await widget.waitFor({ state: 'hidden', timeout: Math.max(5000, deadline - Date.now()) });
}

/**
 * Runs a command that opens a quick pick of its own and clicks the first row matching `row` (a
 * Playwright filter). The picker closes when something else takes focus, such as a webview that
 * just loaded; then the command is run again, until `timeoutMs`.
 * @param {Page} page @param {string} title
 * @param {{ hasText?: string | RegExp, has?: import('playwright-core').Locator }} row
 * @param {{ timeoutMs?: number }} [options]
 */
export async function runCommandAndPick(page, title, row, { timeoutMs = WAIT_DEADLINE_MS } = {}) {
  const deadline = Date.now() + timeoutMs;
  const widget = page.locator('.quick-input-widget');
  for (;;) {
    await runCommand(page, title, { opensPicker: true, timeoutMs: Math.max(5000, deadline - Date.now()) });
    const target = widget.locator('.quick-input-list .monaco-list-row').filter(row).first();
    try {
      await target.waitFor({ state: 'visible', timeout: 5000 });
      await target.click({ timeout: 3000 });
      await widget.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    } catch (error) {
      if (await widget.isVisible().catch(() => false)) await page.keyboard.press('Escape');
      if (Date.now() >= deadline) throw error;
    }
  }
}

/**
 * Opens a workspace file through Quick Open (Ctrl+P), as a person would, and
 * waits for its editor tab.
 * @param {Page} page @param {string} relativePath e.g. 'src/a.ts' @param {{timeoutMs?: number}} [options]
 */
export async function openFile(page, relativePath, { timeoutMs = WAIT_DEADLINE_MS } = {}) {
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press('Control+P');
  const input = widget.locator('input[type="text"], input:not([type])').first();
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(relativePath);
  const baseName = relativePath.split('/').pop() ?? relativePath;
  const row = widget
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(baseName)}\\s*$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click();
  await widget.waitFor({ state: 'hidden', timeout: timeoutMs });
  await page
    .locator('.tabs-container .tab.active', { hasText: baseName })
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

/**
 * The frame (webviews are iframes inside iframes) that contains `selector`.
 * @param {Page} page @param {string} selector any Playwright selector @param {{timeoutMs?: number}} [options]
 * @returns {Promise<Frame>}
 */
export async function findWebviewFrame(page, selector, { timeoutMs = WAIT_DEADLINE_MS } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      try {
        if (await frame.$(selector)) return frame;
      } catch {
        // The frame navigated or went away while we looked.
      }
    }
    await sleep(200);
  }
  const urls = page.frames().map((frame) => frame.url().slice(0, 120));
  throw new Error(`No frame contains ${selector} after ${timeoutMs / 1000} s. Frames: ${JSON.stringify(urls)}`);
}

/**
 * The cursor position the status bar shows ("Ln 12, Col 5"), both 1-based.
 * @param {Page} page @param {{timeoutMs?: number}} [options]
 * @returns {Promise<{line: number, column: number}>}
 */
export async function statusBarCursor(page, { timeoutMs = WAIT_DEADLINE_MS } = {}) {
  const item = page
    .locator('.statusbar-item')
    .filter({ hasText: /Ln \d+, Col \d+/ })
    .first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  const text = await item.innerText();
  const match = /Ln (\d+), Col (\d+)/.exec(text);
  if (!match) throw new Error(`Status bar cursor item reads "${text}"`);
  return { line: Number(match[1]), column: Number(match[2]) };
}

/**
 * Saves a PNG of the page to test-artifacts/<name>.png and returns its path.
 * @param {Page} page @param {string} name
 */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Opens a new integrated terminal and returns the values its shell sees for
 * `names` (undefined when unset). The shell writes them to a file, which is
 * more reliable than reading xterm's rows.
 * @param {Page} page @param {string[]} names @param {{timeoutMs?: number}} [options]
 * @returns {Promise<Record<string, string | undefined>>}
 */
export async function readTerminalEnv(page, names, { timeoutMs = WAIT_DEADLINE_MS } = {}) {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`Not an environment variable name: ${JSON.stringify(name)}`);
  }
  const deadline = Date.now() + timeoutMs;
  await runCommand(page, 'Terminal: Create New Terminal', { timeoutMs });
  // Wait for the prompt so that the typed line is not eaten by shell startup.
  const rows = page.locator('.terminal-wrapper.active .xterm-rows');
  await rows.waitFor({ state: 'visible', timeout: timeoutMs });
  while (Date.now() < deadline && (await rows.innerText().catch(() => '')).trim() === '') await sleep(100);
  await page.locator('.terminal-wrapper.active .xterm-helper-textarea').focus();

  const outFile = join(tmpdir(), `redline-terminal-env-${randomUUID()}.tsv`);
  // One line per name: name, "1" if set, value. Written to a temp name and
  // renamed so that a half-written file is never read. HISTFILE is unset so
  // that this line does not land in the user's shell history.
  const lines = names.map((name) => `printf '%s\\t%s\\t%s\\n' ${name} "\${${name}+1}" "\${${name}-}"`).join('; ');
  await page.keyboard.type(` unset HISTFILE; { ${lines}; } > '${outFile}.tmp' && mv '${outFile}.tmp' '${outFile}'`);
  await page.keyboard.press('Enter');

  try {
    while (!existsSync(outFile)) {
      if (Date.now() > deadline) {
        const screen = await rows.innerText().catch(() => '');
        throw new Error(
          `The terminal did not write ${outFile} within ${timeoutMs / 1000} s. Terminal shows:\n${screen}`,
        );
      }
      await sleep(100);
    }
    /** @type {Record<string, string | undefined>} */
    const values = {};
    for (const line of readFileSync(outFile, 'utf8').split('\n')) {
      const [name, isSet, ...value] = line.split('\t');
      if (name) values[name] = isSet === '1' ? value.join('\t') : undefined;
    }
    return values;
  } finally {
    rmSync(outFile, { force: true });
    rmSync(`${outFile}.tmp`, { force: true });
  }
}

/** @param {string} text */
export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
