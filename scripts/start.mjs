// `npm start`: Redline in a real VS Code (code-server, as the end-to-end tests run it) on 127.0.0.1,
// with the packaged extension installed and the sample workspace open. Every window that opens on
// that workspace is shown the sample review, presented through the real MCP server as an assistant
// presents one, so opening the printed URL is the only step. The window runs as the user's own
// session (their HOME and temp folder): `claude` in its terminal has the user's config and login,
// and the command line in any terminal finds the window. Runs until Ctrl-C, then stops what it started.

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { installVsix, startCodeServer } from '../test/e2e/harness/codeServer.mjs';
import { windowsOn } from '../test/e2e/harness/discoveryFiles.mjs';
import { ensureTestVsCode, REPO_ROOT } from '../test/e2e/harness/install.mjs';
import { sleep } from '../test/e2e/harness/processes.mjs';
import { workbenchUrl } from '../test/e2e/harness/workbench.mjs';

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const vsix = join(REPO_ROOT, `redline-${version}.vsix`);
const sampleReview = readFileSync(join(REPO_ROOT, 'extension/sample/review.md'), 'utf8');
/** The sample's tab in the panel: SampleReview.assistant in extension/src/constants.ts, as Show Sample Review fills it. */
const SAMPLE_ASSISTANT = 'Sample review';
// Kept between runs (git-ignored), so that nothing printed names a temporary path: the workspace is
// laid anew each time, the extension installed over the last one.
const DEMO_DIR = join(REPO_ROOT, '.cache', 'demo');
const workspace = join(DEMO_DIR, 'sample-workspace');
const extensionsDir = join(DEMO_DIR, 'extensions');
const say = (line = '') => process.stdout.write(`${line}\n`);

let server;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  say('\nStopping the Redline demo…');
  await server?.stop();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  if (process.platform !== 'linux')
    throw new Error('npm start runs code-server with Debian packages (chromium, libkrb5-dev): it needs Linux.');
  say('Checking the test VS Code (code-server; installed once into .cache/)…');
  await ensureTestVsCode({ testTools: false });
  rmSync(workspace, { recursive: true, force: true });
  cpSync(join(REPO_ROOT, 'extension/sample/workspace'), workspace, { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  await installVsix(vsix, extensionsDir);
  server = await startCodeServer({
    extensionsDir,
    workspace,
    smokeTestDriver: false,
    userSession: true,
    // The workspace lies in Redline's own repository: git's question about it would cover the review.
    settings: { 'git.openRepositoryInParentFolders': 'never' },
  });
  printSteps(workbenchUrl(server.url, workspace));
  await presentInEveryWindow();
} catch (error) {
  process.stderr.write(`\nnpm start failed: ${error?.stack ?? error}\n`);
  await stop(1);
}

function printSteps(url) {
  const home = homedir();
  const shown = (path) => (path.startsWith(`${home}/`) ? `~/${relative(home, path)}` : path);
  say();
  say(`Redline ${version} is running in a real VS Code (code-server), with a sample workspace open.`);
  say();
  say(`  1. Open ${url}`);
  say('     The sample review appears in the window by itself, in a few seconds.');
  say('  2. Connect your assistant, once (in the window: Terminal > New Terminal; or any terminal):');
  say('       claude mcp add --scope user redline -- node ~/.redline/mcp-server.js');
  say('     Codex CLI, Gemini CLI, Cursor: see "Get started" in README.md.');
  say(`  3. Start it in the sample workspace (${shown(workspace)}) and type:`);
  say('       Review src/rateLimiter.ts and present it with present-review.');
  say();
  say(`From any terminal: node ~/.redline/mcp-server.js status --workspace ${shown(workspace)}`);
  say('Press Ctrl-C to stop.');
  say();
}

/**
 * Each browser tab is a window with its own extension host, which publishes a discovery file once
 * Redline has started; each new one is shown the sample, as an assistant would present it there.
 */
async function presentInEveryWindow() {
  const shown = new Set();
  while (!stopping) {
    for (const window of windowsOn(workspace)) {
      if (shown.has(window.socketPath)) continue;
      shown.add(window.socketPath);
      try {
        const presented = await presentSampleIn(window);
        say(
          `Showed the sample review in a new window (revision ${presented.revision}: ` +
            `${presented.references.resolved} of ${presented.references.total} references resolved).`,
        );
      } catch (error) {
        // A tab closed or reloaded at once: its successor is a window of its own.
        say(`Could not show the sample review in a window that just opened: ${error?.message ?? error}`);
      }
    }
    await sleep(500);
  }
}

/** present-review through the built MCP server, pinned to `window` as its terminal's variables would pin it. */
async function presentSampleIn(window) {
  const serverPath = join(extensionsDir, `redline-dev.redline-${version}`, 'dist', 'mcp-server.js');
  const client = new Client({ name: SAMPLE_ASSISTANT, version }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [serverPath],
      cwd: workspace,
      env: { PATH: process.env.PATH, REDLINE_IPC_PATH: window.socketPath, REDLINE_IPC_TOKEN: window.token },
      stderr: 'ignore',
    }),
  );
  try {
    const result = await client.callTool({
      name: 'present-review',
      arguments: { content: sampleReview, title: 'Sample review' },
    });
    if (result.isError) throw new Error(result.content?.[0]?.text ?? 'present-review failed');
    return result.structuredContent;
  } finally {
    await client.close().catch(() => undefined);
  }
}
