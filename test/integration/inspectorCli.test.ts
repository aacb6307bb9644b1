// The MCP Inspector's CLI, pinned and installed by the project's own installer
// (test/e2e/harness/install.mjs, on the test VS Code's Node 24: the Inspector needs Node 22.19 or
// later), against the built server in each of its protocol eras: legacy (initialize), auto
// (server/discover first) and modern (pinned to 2026-07-28). Its --strict check of the tool schemas
// must find nothing to warn about, and a present-review must reach the window.

import { execFile } from 'child_process';
import * as path from 'path';
import { assertBuilt, hostEnv, MCP_SERVER, startHost, type Host } from './harness';

const INSTALLER = path.resolve(__dirname, '../e2e/harness/install.mjs');
const ERAS = ['legacy', 'auto', 'modern'] as const;

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], timeoutMs = 60_000): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('the MCP Inspector CLI against the built server', () => {
  let host: Host;
  let inspector: (args: readonly string[]) => Promise<Finished>;

  beforeAll(
    async () => {
      assertBuilt();
      // Installs what is missing (npm test has run the installer already), and says where it is.
      const installed = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import(${JSON.stringify(INSTALLER)}).then(async (m) => console.log(JSON.stringify(await m.ensureTestVsCode())))`,
        ],
        20 * 60_000,
      );
      if (installed.code !== 0) throw new Error(`node test/e2e/harness/install.mjs failed:\n${installed.stderr}`);
      const { nodePath, inspectorEntry } = JSON.parse(installed.stdout.trim().split('\n').pop()!);
      inspector = (args) => run(nodePath, [inspectorEntry, '--cli', ...args]);
      host = await startHost();
    },
    20 * 60_000 + 30_000,
  );
  afterAll(async () => {
    await host?.stop();
  });

  it.each(ERAS)('lists the tools in the %s era, and --strict finds no schema to warn about', async (era) => {
    const listed = await inspector([
      '--protocol-era',
      era,
      '--method',
      'tools/list',
      '--strict',
      process.execPath,
      MCP_SERVER,
    ]);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout).tools.map((tool: { name: string }) => tool.name)).toContain('present-review');
  });

  it.each(ERAS)('presents a review that reaches the window, in the %s era', async (era) => {
    const content = `# From the Inspector (${era})`;
    const env = Object.entries(hostEnv(host)).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    const called = await inspector([
      '--protocol-era',
      era,
      ...env,
      '--cwd',
      host.workspace,
      '--method',
      'tools/call',
      '--tool-name',
      'present-review',
      '--tool-arg',
      `content=${content}`,
      // --tool-arg takes every value up to the next option.
      '--',
      process.execPath,
      MCP_SERVER,
    ]);
    expect({ code: called.code, stderr: called.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(called.stdout).structuredContent).toMatchObject({ sectionCount: 1 });
    expect(host.reviews.all.some((review) => review.store.current?.markdown === content)).toBe(true);
  });
});
