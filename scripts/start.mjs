// `npm start`: a real VS Code (code-server, the same set-up the end-to-end tests use) on
// 127.0.0.1 with the packaged Redline installed and a sample workspace open, and a sample review
// presented through the real MCP server, the way an assistant presents one. Runs until Ctrl-C,
// then stops everything it started.

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { installVsix, startCodeServer } from '../test/e2e/harness/codeServer.mjs';
import { ensureTestVsCode, REPO_ROOT } from '../test/e2e/harness/install.mjs';
import { makeTempDir, sleep } from '../test/e2e/harness/processes.mjs';
import {
  closeWorkbench,
  findWebviewFrame,
  openWorkbench,
  readTerminalEnv,
  screenshot,
  workbenchUrl,
} from '../test/e2e/harness/workbench.mjs';

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const vsix = join(REPO_ROOT, `redline-${version}.vsix`);
const sampleReview = readFileSync(join(REPO_ROOT, 'scripts/demo/sample-review.md'), 'utf8');
const say = (line) => process.stdout.write(`${line}\n`);

let server;
let mcp;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  say('\nStopping Redline demo…');
  await mcp?.close().catch(() => undefined);
  await server?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  say('Checking the test VS Code (code-server; installed once into .cache/)…');
  await ensureTestVsCode();

  const workspace = join(makeTempDir('redline-demo-'), 'sample-workspace');
  cpSync(join(REPO_ROOT, 'scripts/demo/workspace'), workspace, { recursive: true });
  const extensionsDir = makeTempDir('redline-demo-extensions-');
  await installVsix(vsix, extensionsDir);
  server = await startCodeServer({ extensionsDir, workspace });
  const url = workbenchUrl(server.url, workspace);

  // Open the window once, headless, to read the environment its terminals get: exactly what an
  // assistant started in that terminal sees.
  const page = await openWorkbench(server.url, workspace);
  // The terminal must open after Redline has activated, or it lacks Redline's variables.
  await waitForRedline(server.userDataDir);
  const env = await readTerminalEnv(page, ['REDLINE_IPC_PATH', 'REDLINE_IPC_TOKEN']);
  if (!env.REDLINE_IPC_PATH || !env.REDLINE_IPC_TOKEN)
    throw new Error('Redline did not put REDLINE_IPC_PATH/REDLINE_IPC_TOKEN into the terminal.');

  const serverPath = join(
    extensionsDir,
    readdirSync(extensionsDir).find((name) => name.startsWith('redline-dev.redline-')),
    'dist',
    'mcp-server.js',
  );
  mcp = new Client({ name: 'redline-demo', version }, { versionNegotiation: { mode: 'auto' } });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [serverPath],
      cwd: workspace,
      env: { PATH: process.env.PATH, REDLINE_IPC_PATH: env.REDLINE_IPC_PATH, REDLINE_IPC_TOKEN: env.REDLINE_IPC_TOKEN },
      stderr: 'ignore',
    }),
  );
  const presented = await presentSample();
  const frame = await findWebviewFrame(page, 'text=token-bucket rate limiter', { timeoutMs: 30_000 });
  // The panel highlights code after the page is shown: the screenshot waits for it, as a reader would.
  await frame
    .locator('pre code.hljs')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  const shot = await screenshot(page, 'npm-start');
  await closeWorkbench(page);

  say('');
  say('Redline is running in a real VS Code.');
  say(`  Open:           ${url}`);
  say(
    `  Sample review:  revision ${presented.revision}, ${presented.references.resolved} of ${presented.references.total} references resolved (screenshot: ${shot})`,
  );
  say(`  Connect Claude: claude mcp add redline -- node ${JSON.stringify(serverPath)}`);
  say('                  then start `claude` in a terminal of that VS Code window.');
  say('');
  say('The sample review is presented again in any window of this workspace that opens without one.');
  say('Press Ctrl-C to stop.');

  // Each browser tab is a window with its own extension host; the newest takes over the socket
  // path, and this loop presents the sample there too, as an assistant would call again.
  while (!stopping) {
    await sleep(1000);
    const review = await mcp.callTool({ name: 'get-review', arguments: {} }).catch(() => undefined);
    if (
      review &&
      !review.isError &&
      review.structuredContent?.revision !== undefined &&
      review.structuredContent.markdown === ''
    ) {
      const again = await presentSample().catch(() => undefined);
      if (again) say(`Presented the sample review in a newly opened window (revision ${again.revision}).`);
    }
  }
} catch (error) {
  process.stderr.write(`\nnpm start failed: ${error?.stack ?? error}\n`);
  await stop(1);
}

async function presentSample() {
  const result = await mcp.callTool({
    name: 'present-review',
    arguments: { content: sampleReview, title: 'Sample review' },
  });
  if (result.isError) throw new Error(result.content?.[0]?.text ?? 'present-review failed');
  return result.structuredContent;
}

/** Waits for Redline's log (in the "Redline" output channel) to say that its bridge listens. */
async function waitForRedline(userDataDir) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const logs = execFileSync('find', [join(userDataDir, 'logs'), '-name', 'Redline.log'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
    if (logs.some((file) => readFileSync(file, 'utf8').includes('[bridge] listening'))) return;
    await sleep(250);
  }
  throw new Error('Redline did not start its bridge within 60 s; see the "Redline" output channel.');
}
