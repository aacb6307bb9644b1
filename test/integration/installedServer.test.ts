// The built MCP server as an installation holds it: the entry (dist/mcp-server.js) and the files it
// reads from beside itself, copied alone into a folder of their own (what package.json's "files"
// puts into the .vsix), and started through the ~/.redline launcher from an unrelated working
// directory. The client here is the SDK's previous line (@modelcontextprotocol/sdk 1.x), which
// many assistants still embed: it speaks only `initialize`, and must keep working. The command
// line runs in the same bundle as the server.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { updateStableServerPath, stableServerPath } from '../../extension/src/assistants/stableServerPath';
import { assertBuilt, hostEnv, MCP_SERVER, startHost, type Host } from './harness';

/**
 * The entry, and what it reads from beside itself: the captured answers, the rest of the server
 * (mcp-server/src/index.ts) and the review's view for chats that render it (appView/).
 */
const SERVER_FILES = [path.basename(MCP_SERVER), 'mcp-server-opening.json', 'mcp-server-full.js', 'review-view.html'];

describe('the MCP server as installed, through the launcher', () => {
  let host: Host;
  let scratch: string;
  let home: string;
  /** Somewhere that is neither the installation nor the workspace. */
  let elsewhere: string;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-installed-'));
    const dist = path.join(scratch, 'extension', 'dist');
    fs.mkdirSync(dist, { recursive: true });
    for (const file of SERVER_FILES) fs.copyFileSync(path.join(path.dirname(MCP_SERVER), file), path.join(dist, file));
    home = path.join(scratch, 'home');
    updateStableServerPath(path.join(dist, path.basename(MCP_SERVER)), '0.0.1', home);
    elsewhere = path.join(scratch, 'elsewhere');
    fs.mkdirSync(elsewhere);
  });
  afterAll(async () => {
    await host?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The installed server, started through the launcher from elsewhere, as an assistant starts it. */
  const throughLauncher = () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [stableServerPath(home)],
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', ...hostEnv(host) },
      stderr: 'pipe',
    });

  it('ships every file the entry loads', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
    for (const file of SERVER_FILES) expect(manifest.files).toContain(`dist/${file}`);
  });

  it('serves the 1.x SDK client: it lists, and a present-review reaches the window', async () => {
    const transport = throughLauncher();
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'installed-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(9);
      const result = (await client.callTool({
        name: 'present-review',
        arguments: { content: '# Installed\n\nReached the window.' },
      })) as { isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect(host.store.current?.markdown).toBe('# Installed\n\nReached the window.');
      // A start and a call are routine: nothing on stderr, which assistants show as errors.
      expect(stderr).toBe('');
    } finally {
      await client.close();
    }
  });

  it("gives a chat that renders MCP Apps the review's view from beside itself", async () => {
    const transport = throughLauncher();
    const client = new Client(
      { name: 'installed-chat', version: '1.0.0' },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
    );
    await client.connect(transport);
    try {
      const { contents } = await client.readResource({ uri: 'ui://redline/review' });
      expect(contents).toEqual([
        expect.objectContaining({
          uri: 'ui://redline/review',
          mimeType: 'text/html;profile=mcp-app',
          text: fs.readFileSync(path.join(path.dirname(MCP_SERVER), 'review-view.html'), 'utf8'),
        }),
      ]);
    } finally {
      await client.close();
    }
  });

  it('runs the command line: present FILE.md reaches the window and exits 0', async () => {
    const file = path.join(elsewhere, 'review.md');
    fs.writeFileSync(file, '# From the command line\n');
    // Not spawnSync: the window answering it runs in this process.
    const child = spawn(process.execPath, [stableServerPath(home), 'present', file], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', ...hostEnv(host) },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, output }).toEqual({ code: 0, output: expect.any(String) });
    expect(host.store.current?.markdown).toBe('# From the command line\n');
  });
});
