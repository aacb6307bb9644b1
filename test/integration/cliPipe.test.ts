// The command line read by a reader that stops early, as `get-review | head` does: the pipe closes
// under a long review, which is no failure of the command. It ends with 0 and writes no stack trace.

import { spawn } from 'child_process';
import { once } from 'events';
import { Readable } from 'stream';
import { runCli, Exit } from '../../mcp-server/src/cli';
import { assertBuilt, hostEnv, MCP_SERVER, startHost, type Host } from './harness';

let host: Host;
beforeAll(async () => {
  assertBuilt();
  host = await startHost();
  // Far more than a pipe holds, so that the reader's close comes while the command still writes.
  const review = `# Long\n\n${'A line of the review that the reader will never read.\n'.repeat(60_000)}`;
  const present = {
    argv: ['present', '-'],
    env: hostEnv(host),
    cwd: host.workspace,
    stdout: () => undefined,
    stderr: () => undefined,
    stdin: Readable.from([Buffer.from(review)]),
  };
  expect(await runCli(present)).toBe(Exit.ok);
});
afterAll(() => host?.stop());

it('ends with 0 and says nothing when its reader closes the pipe early', async () => {
  const child = spawn(process.execPath, [MCP_SERVER, 'get-review'], {
    env: { PATH: process.env.PATH, ...hostEnv(host) },
    cwd: host.workspace,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The first chunk, then the reader is gone.
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  expect(first.toString()).toMatch(/^# Long/);
  child.stdout.destroy();
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
});
