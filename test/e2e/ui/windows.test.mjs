// Two windows on different folders (two code-server tabs, each with an extension host of its own),
// and MCP servers started with no REDLINE_IPC_* variable, as Cursor, a terminal outside VS Code or
// any launcher starts them: each finds the window of its folder through the discovery files (in
// the run's own folder of them, REDLINE_RUNTIME_DIR, so that no other window on this machine counts).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import {
  closeWorkbench,
  findWebviewFrame,
  openWorkbench,
  readTerminalEnv,
  runCommand,
  screenshot,
} from '../harness/workbench.mjs';
import { runEnvironment } from '../harness/processes.mjs';
import { isAlive, RedlineSession, session, waitFor } from './session.mjs';

/** @typedef {ReturnType<import('./session.mjs').RedlineSession['discoveryFiles']>[number]} WindowRecord */

describe('Two windows, and assistants started outside VS Code', () => {
  /** @type {import('playwright-core').Page | undefined} */
  let second;
  /** @type {string} */
  let secondFolder;
  /** @type {Array<{ client: Client, stderr: () => string }>} */
  const servers = [];

  before(async function () {
    this.timeout(120_000);
    const s = session();
    secondFolder = join(/** @type {string} */ (s.tempDir), 'second-project');
    mkdirSync(join(secondFolder, 'src'), { recursive: true });
    writeFileSync(join(secondFolder, 'src', 'other.ts'), 'export const other = 1;\n');
    second = await openWorkbench(s.server.url, secondFolder);
    // Activates Redline in the second window now rather than at onStartupFinished.
    await runCommand(second, 'Redline: Show Review', { timeoutMs: 60_000 });
    await waitFor(() => windowOf(secondFolder), "the second window's discovery file", 60_000);
  });

  after(async () => {
    await Promise.all(servers.splice(0).map(({ client }) => client.close().catch(() => {})));
    if (second) await closeWorkbench(second);
  });

  it('each window publishes a discovery file of its own, 0600, with its folder, process, socket and editor', async () => {
    const s = session();
    const first = windowOf(/** @type {string} */ (s.workspace));
    const other = windowOf(secondFolder);
    assert.ok(first && other, 'both windows have a discovery file');
    assert.notEqual(first.pid, other.pid, 'two extension hosts');
    assert.notEqual(first.socketPath, other.socketPath);
    assert.notEqual(first.token, other.token);
    const terminal = await readTerminalEnv(s.page, ['REDLINE_IPC_PATH']);
    await runCommand(s.page, 'View: Toggle Panel Visibility');
    assert.equal(
      terminal.REDLINE_IPC_PATH,
      first.socketPath,
      "the first window's terminals point at its own host's socket",
    );
    for (const record of s.discoveryFiles()) {
      assert.equal((statSync(record.file).mode & 0o777).toString(8), '600', `mode of ${record.file}`);
      assert.equal(statSync(record.file).uid, process.getuid?.());
    }
    assert.match(first.editor, /\S/);
  });

  it('a server with no REDLINE_* variables, started in a subfolder, reaches its own window and no other', async () => {
    const s = session();
    const [inFirst, inSecond] = await Promise.all([
      startServer(join(/** @type {string} */ (s.workspace), 'src')),
      startServer(join(secondFolder, 'src')),
    ]);
    const [firstMarker, secondMarker] = [RedlineSession.marker('FIRST-WINDOW'), RedlineSession.marker('SECOND-WINDOW')];
    await presentOk(inFirst.client, `# First window\n\n${firstMarker}\n`);
    await presentOk(inSecond.client, `# Second window\n\n${secondMarker}\n`);

    await s.waitForReviewText(firstMarker);
    const secondFrame = await findWebviewFrame(/** @type {any} */ (second), '#review', { timeoutMs: 30_000 });
    await secondFrame.waitForFunction(
      (wanted) => document.getElementById('review')?.textContent?.includes(wanted) ?? false,
      secondMarker,
      {
        timeout: 15_000,
      },
    );
    await screenshot(/** @type {any} */ (second), 'e2e-ui-23-second-window');

    const firstReview = await reviewText(inFirst.client);
    const secondReview = await reviewText(inSecond.client);
    assert.ok(
      firstReview.includes(firstMarker) && !firstReview.includes(secondMarker),
      'the first window has only its review',
    );
    assert.ok(
      secondReview.includes(secondMarker) && !secondReview.includes(firstMarker),
      'the second window has only its review',
    );
    assert.ok(!(await secondFrame.locator('#review').innerText()).includes(firstMarker));
  });

  it('a server started outside every folder is told both folders and how to choose', async () => {
    const s = session();
    const lost = await startServer(/** @type {string} */ (s.tempDir));
    const result = /** @type {any} */ (await lost.client.callTool({ name: 'get-review', arguments: {} }));
    assert.equal(result.isError, true);
    const text = result.content[0].text;
    assert.match(text, /No VS Code window has a workspace folder that contains/);
    assert.ok(text.includes(/** @type {string} */ (s.workspace)), `names the first folder: ${text}`);
    assert.ok(text.includes(secondFolder), `names the second folder: ${text}`);
    assert.match(text, /REDLINE_WORKSPACE=<folder>/);
    assert.match(text, /--workspace <folder>/);
  });

  it('"Redline: Rotate Token" changes the token in the discovery file, and a running assistant reconnects by itself', async () => {
    const s = session();
    const before = /** @type {WindowRecord} */ (windowOf(/** @type {string} */ (s.workspace)));
    await s.call('get-review');
    await runCommand(s.page, 'Redline: Rotate Token');
    const after = await waitFor(() => {
      const record = windowOf(/** @type {string} */ (s.workspace));
      return record && record.token !== before.token ? record : undefined;
    }, 'the new token in the discovery file');
    assert.equal(after.socketPath, before.socketPath, 'the same socket');
    assert.equal((statSync(after.file).mode & 0o777).toString(8), '600');
    // The session's server was started with the old token in REDLINE_IPC_TOKEN; its connection was closed.
    const review = await s.call('get-review');
    assert.equal(typeof review.revision, 'number');
    assert.match(s.mcpStderr ?? '', /"event":"connected"/);
  });

  it("after a window's extension host is killed, its discovery file is ignored and removed", async () => {
    const killed = /** @type {WindowRecord} */ (windowOf(secondFolder));
    process.kill(killed.pid, 'SIGKILL');
    await waitFor(() => !isAlive(killed.pid), 'the killed extension host to exit');
    assert.ok(existsSync(killed.file), 'the host died without removing its file');

    const server = await startServer(join(secondFolder, 'src'));
    const result = /** @type {any} */ (await server.client.callTool({ name: 'get-review', arguments: {} }));
    assert.ok(!existsSync(killed.file), "discovery removed the dead host's file");
    const connectedTo = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"event":"connected"'))
      .map((line) => JSON.parse(line).socketPath);
    assert.ok(!connectedTo.includes(killed.socketPath), 'never connected to the dead socket');
    if (result.isError) {
      // The workbench had not restarted the host yet: no window has the folder now.
      assert.match(result.content[0].text, /No VS Code window has a workspace folder that contains/);
      assert.ok(!result.content[0].text.includes(`${secondFolder} (`), 'the dead window is not listed');
    } else {
      // The workbench restarted the host: a new process, a new file, a new socket.
      const restarted = /** @type {WindowRecord} */ (windowOf(secondFolder));
      assert.notEqual(restarted.pid, killed.pid);
      assert.deepEqual(connectedTo, [restarted.socketPath]);
    }
  });

  /** Starts the packaged server the way a launcher outside VS Code would: no REDLINE_* variable. @param {string} cwd */
  async function startServer(cwd) {
    const s = session();
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [/** @type {string} */ (s.serverPath)],
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        // Its connected lines on stderr say which sockets it reached.
        REDLINE_LOG: 'debug',
        ...runEnvironment(),
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'discovery-e2e', version: '0.0.0' });
    await client.connect(transport);
    const server = { client, stderr: () => stderr };
    servers.push(server);
    return server;
  }
});

/** @param {string} folder */
function windowOf(folder) {
  return session().windowOf(folder);
}

/** @param {Client} client @param {string} content */
async function presentOk(client, content) {
  const result = /** @type {any} */ (await client.callTool({ name: 'present-review', arguments: { content } }));
  assert.ok(!result.isError, `present-review failed: ${JSON.stringify(result.content)}`);
}

/** @param {Client} client */
async function reviewText(client) {
  const result = /** @type {any} */ (await client.callTool({ name: 'get-review', arguments: {} }));
  assert.ok(!result.isError, `get-review failed: ${JSON.stringify(result.content)}`);
  return /** @type {string} */ (result.structuredContent.markdown);
}
