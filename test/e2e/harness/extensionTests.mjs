// Runs an extensionTestsPath suite (mocha inside the real extension host) in
// code-server: the offline stand-in for @vscode/test-electron's runTests().
import { format } from 'node:util';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCodeServer } from './codeServer.mjs';
import { closeWorkbench, openWorkbench } from './workbench.mjs';
import { RUN_DEADLINE_MS } from '../../support/deadlines.cjs';

/**
 * @typedef {object} ExtensionTestOptions
 * @property {string} extensionDevelopmentPath  folder with the extension's package.json
 * @property {string} extensionTestsPath        module exporting `run(): Promise<void>`
 * @property {string} [workspace]               folder to open
 * @property {Record<string, string>} [env]     environment for the extension host (extensionEnvironment)
 * @property {string} [extensionsDir]           other installed extensions; default: none
 * @property {Record<string, unknown>} [settings] user settings over the quiet defaults
 * @property {number} [timeoutMs]               whole run; by default, a run's hang deadline (test/support/deadlines.cjs)
 * @property {NodeJS.WritableStream} [output]   where the suite's output goes; default stdout
 */

/**
 * Starts code-server, opens the workbench with the test payload, streams the
 * suite's output and resolves with its exit code (0 = all passed). Rejects on
 * timeout; always stops the browser and the server.
 * @param {ExtensionTestOptions} options
 * @returns {Promise<number>}
 */
export async function runExtensionTests(options) {
  const timeoutMs = options.timeoutMs ?? RUN_DEADLINE_MS;
  const output = options.output ?? process.stdout;
  const verbose = Boolean(process.env.E2E_VERBOSE);
  const deadline = Date.now() + timeoutMs;
  /** @type {string[]} */
  const recent = [];
  const log = (/** @type {string} */ text) => {
    output.write(text.endsWith('\n') ? text : `${text}\n`);
    recent.push(text);
    if (recent.length > 30) recent.shift();
  };

  let finished = false;
  /** @type {(code: number) => void} */
  let resolveExitCode = () => {};
  /** @type {Promise<number>} */
  const exitCode = new Promise((resolveExit) => {
    resolveExitCode = resolveExit;
  });
  const reportExit = (/** @type {number} */ code) => {
    finished = true;
    resolveExitCode(code);
  };

  /** @type {import('./codeServer.mjs').CodeServer | undefined} */
  let server;
  /** @type {import('playwright-core').Page | undefined} */
  let page;
  /** @type {Promise<import('playwright-core').Page> | undefined} */
  let opening;
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    server = await startCodeServer({
      extensionsDir: options.extensionsDir,
      settings: options.settings,
      workspace: options.workspace,
    });
    // Paths in the payload are URIs on the server's side of the remote connection.
    const authority = `127.0.0.1:${server.port}`;
    const remote = (/** @type {string} */ path) =>
      `vscode-remote://${authority}${pathToFileURL(resolve(path)).pathname}`;
    /** @type {Array<[string, string]>} */
    const payload = [
      ['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)],
      ['extensionTestsPath', remote(options.extensionTestsPath)],
    ];
    if (options.env) payload.push(['extensionEnvironment', JSON.stringify(options.env)]);

    const timedOut = new Promise((_, reject) => {
      timer = setTimeout(
        () => {
          reject(
            new Error(
              `Extension tests did not finish within ${timeoutMs / 1000} s (no codeAutomationExit). Last output:\n${recent.join('\n')}`,
            ),
          );
        },
        Math.max(1, deadline - Date.now()),
      );
    });
    opening = openWorkbench(server.url, options.workspace, {
      payload,
      timeoutMs: Math.max(1, deadline - Date.now()),
      beforeGoto: async (newPage) => {
        // The workbench calls these when it sees the smoke-test driver flag:
        // codeAutomationLog(level, [format, ...args]) for its log lines and the
        // suite's console output alike, codeAutomationExit(code) once the suite is done.
        await newPage.exposeFunction(
          'codeAutomationLog',
          (/** @type {string} */ type, /** @type {unknown[]} */ args) => {
            // After the exit code, the extension host's shutdown only adds noise ("Canceled").
            if (finished) return;
            const text = Array.isArray(args) ? format(...args) : String(args);
            if (verbose || !isWorkbenchChatter(type, text))
              log(type === 'info' || type === 'log' ? text : `[${type}] ${text}`);
          },
        );
        await newPage.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => reportExit(code));
      },
    });
    page = await Promise.race([opening, timedOut]);
    const pageLost = new Promise((_, reject) => {
      const lost = (/** @type {string} */ how) => () =>
        reject(new Error(`The workbench page ${how} before the tests finished. Last output:\n${recent.join('\n')}`));
      page?.once('close', lost('closed'));
      page?.once('crash', lost('crashed'));
    });
    return await Promise.race([exitCode, timedOut, pageLost]);
  } finally {
    finished = true;
    clearTimeout(timer);
    await closeWorkbench(page);
    await server?.stop();
    // Timed out while the browser was still starting: close it once it is up.
    if (!page) await opening?.then(closeWorkbench, () => {});
  }
}

// The workbench's own info lines arrive through the same codeAutomationLog as
// the suite's output; these say nothing about the tests (E2E_VERBOSE shows them).
const WORKBENCH_CHATTER = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket \(renderer-/,
  /^\[reconnection-grace-time\]/,
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^\[AgentHost:/,
  /^\[AccountPolicyGate\]/,
];

/** @param {string} type @param {string} text */
function isWorkbenchChatter(type, text) {
  // Logged as errors while the extension host shuts down after the suite.
  if (/^Canceled: Canceled/.test(text)) return true;
  // Search waits for the remote search provider; nothing the suite did.
  if (type === 'warn' && /^No search provider registered for scheme/.test(text)) return true;
  return type === 'info' && WORKBENCH_CHATTER.some((pattern) => pattern.test(text));
}
