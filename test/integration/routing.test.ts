// Which window an assistant's MCP server reaches when its working directory is in no window's
// folder: a git worktree of a repository a window has open goes to that window (and its review's
// references resolve in the worktree's files), then the client's MCP roots choose, as a working
// directory would. Each with a real window host publishing its discovery file, and the built server.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { discoveryEnv } from '../support/discoveryEnv';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { assertBuilt, connectMcp, MCP_SERVER } from './harness';
import { startWindowHost, useRuntimeDir, type WindowHost } from '../hostile/windowHost';

let runtime: ReturnType<typeof useRuntimeDir>;
let window: WindowHost;
let repo: string;
let worktree: string;
let elsewhere: string;

beforeAll(async () => {
  assertBuilt();
  runtime = useRuntimeDir();
  // The window's folder is a git repository; a worktree of it lies beside it, in no window's folder.
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-route-repo-')));
  worktree = `${repo}-agent`;
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'a',
        GIT_AUTHOR_EMAIL: 'a@b',
        GIT_COMMITTER_NAME: 'a',
        GIT_COMMITTER_EMAIL: 'a@b',
      },
    });
  git('init', '-q');
  fs.writeFileSync(path.join(repo, 'main.ts'), 'export {};\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  git('worktree', 'add', '-q', worktree);
  fs.mkdirSync(path.join(worktree, 'src'));
  fs.writeFileSync(path.join(worktree, 'src', 'agent.ts'), 'a\nb\nc\n');
  elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-route-elsewhere-')));
  window = await startWindowHost({ folder: repo, workspace: repo });
});
afterAll(async () => {
  await window?.stop();
  for (const dir of [repo, worktree, elsewhere]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  runtime?.restore();
});

/** Only the runtime directory: no REDLINE_IPC_PATH, as a server a config file started. */
const env = () => discoveryEnv();

it("routes an assistant in a git worktree to the window of the worktree's repository, and resolves its references there", async () => {
  const mcp = await connectMcp(env(), path.join(worktree, 'src'), 'worktree-agent');
  try {
    const result = await mcp.client.callTool({
      name: 'present-review',
      arguments: { content: '# From the worktree\n\n- bug: c is wrong at src/agent.ts:3\n' },
    });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as {
      references: { broken: unknown[]; resolved: number };
      findings: Array<{ file: string; line: number }>;
    };
    // src/agent.ts exists only in the worktree.
    expect(report.references.broken).toEqual([]);
    expect(report.findings).toMatchObject([{ file: path.join(worktree, 'src', 'agent.ts'), line: 3 }]);
    expect((result.structuredContent as { window: string }).window).toBe(
      `the Test Editor window of ${repo}, whose repository has the worktree ${worktree}`,
    );
  } finally {
    await mcp.close();
  }
});

it("routes by the client's MCP roots when the working directory names no window, and says which rules it tried when they do not", async () => {
  const withRoots = async (roots: string[]) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_SERVER],
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', ...env() },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'roots-client', version: '1.0.0' },
      { capabilities: { roots: { listChanged: true } }, versionNegotiation: { mode: 'legacy' } },
    );
    client.setRequestHandler('roots/list', () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: path.basename(root) })),
    }));
    await client.connect(transport);
    return client;
  };
  const rooted = await withRoots([repo]);
  try {
    const result = await rooted.callTool({ name: 'get-review', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { window: string }).window).toBe(
      `the Test Editor window of ${repo}, which holds the client's root ${repo}`,
    );
  } finally {
    await rooted.close();
  }
  const lost = await withRoots([elsewhere]);
  try {
    const result = await lost.callTool({ name: 'get-review', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(`the client's MCP roots (${elsewhere})`);
  } finally {
    await lost.close();
  }
}, 60_000);
