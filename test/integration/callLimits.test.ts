// Limits an assistant meets, end to end (SDK client → built MCP server → socket → real IpcServer):
// at most 64 tool calls in flight per MCP session, and timeouts set per tool.

import { ActivityLog } from '../../extension/src/activity/activityLog';
import { until } from '../support/until';
import { assertBuilt, connectMcp, hostEnv, startHost, type Host, type ToolResult } from './harness';

describe('limits an assistant meets', () => {
  let host: Host;
  const activity = new ActivityLog(1000);

  beforeAll(async () => {
    assertBuilt();
    host = await startHost({ observer: activity });
  });
  afterAll(async () => host?.stop());

  it('runs 64 calls at once and answers the 16 past them at once as busy; the 64 finish once released, and the next call works', async () => {
    let release!: () => void;
    host.editor.hang = new Promise<void>((resolve) => (release = resolve));
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      await mcp.client.callTool({ name: 'get-workspace-folders', arguments: {} });
      const settled: Array<ToolResult | undefined> = Array(80).fill(undefined);
      const calls = Array.from({ length: 80 }, (_, i) =>
        (mcp.client.callTool({ name: 'get-selection', arguments: {} }) as Promise<ToolResult>).then(
          (result) => (settled[i] = result),
        ),
      );
      const done = () => settled.filter((result) => result !== undefined) as ToolResult[];
      const busyLines = () => mcp.stderr().match(/"event":"busy","tool":"get-selection","inFlight":64/g) ?? [];
      const selections = () => activity.entries().filter((entry) => entry.method === 'get-selection');
      await until(() => done().length >= 16, 'the 16 calls past the limit to be answered');
      await until(() => selections().length >= 64, 'the 64 calls within the limit to reach the window');
      await until(() => busyLines().length >= 16, "the 16 busy lines on the MCP server's stderr");
      // There must be no 17th answer while the 64 hang. Every call has been run or refused by now,
      // the window has answered none of the 64, and the MCP server answers a request of its own
      // (tools/list, past the client's cache) after whatever it wrote before it.
      expect(selections().every((entry) => entry.status === 'running')).toBe(true);
      await mcp.client.listTools(undefined, { cacheMode: 'bypass' });
      const early = done();
      expect(early).toHaveLength(16);
      for (const result of early) {
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toBe(
          'Redline is busy with 64 calls from this assistant, its limit; get-selection was not run. Retry it when some of them have answered.',
        );
        // Its code and that a retry may work, in the text too; no structured content for an SDK 1.x client to check against the output schema.
        expect(result.content[1].text).toBe('Error code: Busy. Calling again as it is may work.');
        expect(result.structuredContent).toBeUndefined();
      }
      // Only the 64 reached the window.
      expect(selections()).toHaveLength(64);
      expect(busyLines()).toHaveLength(16);

      release();
      const all = await Promise.all(calls);
      expect(all.filter((result) => !result.isError)).toHaveLength(64);
      host.editor.hang = undefined;
      const next = (await mcp.client.callTool({ name: 'get-selection', arguments: {} })) as ToolResult;
      expect(next.isError).toBeFalsy();
    } finally {
      host.editor.hang = undefined;
      await mcp.close();
    }
  });

  it('takes a timeout per tool from REDLINE_TIMEOUT_MS and --timeout, and names the entries it cannot use without failing', async () => {
    host.editor.hang = new Promise<never>(() => undefined);
    const mcp = await connectMcp(
      hostEnv(host, { REDLINE_TIMEOUT_MS: 'get-selection=250,get-reviews=5,present-review=soon' }),
      host.workspace,
      'redline-test',
      ['--timeout', 'open-location=0'],
    );
    try {
      // The message names the timeout that ended the call: this tool's 250 ms, not its default.
      const hung = (await mcp.client.callTool({ name: 'get-selection', arguments: {} })) as ToolResult;
      expect(hung.isError).toBe(true);
      expect(hung.content[0].text).toMatch(/did not answer get-selection within 250 ms/);
      // The others keep their defaults and work.
      const review = (await mcp.client.callTool({ name: 'get-review', arguments: {} })) as ToolResult;
      expect(review.isError).toBeFalsy();
      const problems = mcp
        .stderr()
        .split('\n')
        .filter((line) => line.includes('"invalid-timeout"'))
        .map((line) => JSON.parse(line).problem as string);
      expect(problems).toEqual([
        expect.stringMatching(/"get-reviews=5" in REDLINE_TIMEOUT_MS names no tool: "get-reviews" is unknown/),
        expect.stringMatching(/"present-review=soon" in REDLINE_TIMEOUT_MS is ignored: "soon" is not a whole number/),
        expect.stringMatching(
          /"open-location=0" in --timeout is ignored: "0" is not a whole number of milliseconds above 0/,
        ),
      ]);
    } finally {
      host.editor.hang = undefined;
      await mcp.close();
    }
  });
});
