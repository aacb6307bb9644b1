// The chat host of host.mjs in a page of the browser, its MCP connection relayed to a process of the
// built server (started as an assistant starts it) line by line: what the page's client sends goes
// to the server's stdin, and each line of its stdout to the page. For the UI suite and the benchmark.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const HOST_SOURCE = fileURLToPath(new URL('./host.mjs', import.meta.url));
const PAGE = '<!doctype html><html><head><title>Chat</title></head><body><div id="chat"></div></body></html>';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */

/** host.mjs and what it imports, as one script for the page. */
export async function bundleHost() {
  const built = await esbuild.build({
    entryPoints: [HOST_SOURCE],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
  });
  await esbuild.stop();
  return built.outputFiles[0].text;
}

/**
 * Opens the host in a new page of `context`; with `server`, its client is relayed to a new process
 * of the built server.
 * @param {BrowserContext} context
 * @param {{ script: string, server?: { path: string, cwd: string, env: NodeJS.ProcessEnv } }} options
 */
export async function openChatHost(context, { script, server }) {
  const page = await context.newPage();
  /** @type {string[]} */
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  const dialogs = /** @type {string[]} */ ([]);
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => {});
  });
  let stderr = '';
  const child = server
    ? spawn(process.execPath, [server.path], { cwd: server.cwd, env: server.env, stdio: ['pipe', 'pipe', 'pipe'] })
    : undefined;
  if (child) {
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-8000)));
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (buffered + chunk).split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line) void page.evaluate((l) => window.chatHostDeliver?.(l), line).catch(() => {});
    });
    await page.exposeFunction('chatHostSend', (/** @type {string} */ line) => {
      child.stdin.write(line + '\n');
    });
  }
  await page.setContent(PAGE);
  await page.addScriptTag({ content: script });
  return {
    page,
    pageErrors,
    dialogs,
    stderr: () => stderr,
    /** The view's frame, once the host has rendered it. */
    async viewFrame() {
      const handle = await page.waitForSelector('#view', { state: 'attached' });
      const frame = await handle.contentFrame();
      if (!frame) throw new Error('The view has no frame');
      return frame;
    },
    async close() {
      await page.close().catch(() => {});
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin.end();
        await exited;
      }
    },
  };
}
