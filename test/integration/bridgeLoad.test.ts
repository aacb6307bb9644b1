// The bridge under load and with large messages: nothing lost, duplicated or reordered.

import { MAX_CALLS_IN_FLIGHT } from '../../mcp-server/src/callLimit';
import { IpcClient } from '../../mcp-server/src/ipcClient';
import { silentLogger } from '../../shared/logger';
import { assertBuilt, connectMcp, hostEnv, inFlightAtMost, startHost, type Host } from './harness';

describe('bridge under load', () => {
  let host: Host;
  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
  });
  afterAll(async () => host?.stop());

  // Past the MCP server's own limit (64 calls in flight per session, callLimits.test.ts): straight
  // over the socket, so that the window's queue of 1,000 waiting requests is what is tested.
  it('1,000 concurrent appends over one connection end with exactly 1,000 sections', async () => {
    const client = new IpcClient({
      socketPath: host.socketPath,
      token: host.token,
      clientInfo: { name: 'load', version: '1' },
      log: silentLogger,
    });
    try {
      await host.store.clear();
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          client.request('present-review', { content: `## Finding ${i}\n\nbody ${i}`, mode: 'append' }),
        ),
      );
      const elapsed = Date.now() - started;
      const titles = host.store.current!.sections.map((s) => s.title);
      expect(titles).toHaveLength(1000);
      expect(new Set(titles).size).toBe(1000);
      // Arrival order is kept.
      expect(titles).toEqual(Array.from({ length: 1000 }, (_, i) => `Finding ${i}`));
      // Each call's reply carries its own revision: all distinct.
      expect(new Set(results.map((r) => r.revision)).size).toBe(1000);
      process.stdout.write(`1,000 concurrent appends, one connection: ${elapsed} ms\n`);
    } finally {
      await client.dispose();
    }
  });

  it('1,000 appends from one MCP client, 64 in flight at a time, end with exactly 1,000 sections', async () => {
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      await mcp.client
        .callTool({ name: 'present-review', arguments: { content: '', mode: 'replace' } })
        .catch(() => undefined);
      await host.store.clear();
      const started = Date.now();
      const results = await inFlightAtMost(
        MAX_CALLS_IN_FLIGHT,
        Array.from(
          { length: 1000 },
          (_, i) => () =>
            mcp.client.callTool({
              name: 'present-review',
              arguments: { content: `## Finding ${i}\n\nbody ${i}`, mode: 'append' },
            }),
        ),
      );
      const elapsed = Date.now() - started;
      expect(results.filter((r) => r.isError)).toEqual([]);
      const titles = host.store.current!.sections.map((s) => s.title);
      expect(titles).toHaveLength(1000);
      expect(new Set(titles).size).toBe(1000);
      expect(new Set(results.map((r) => (r.structuredContent as { revision: number }).revision)).size).toBe(1000);
      process.stdout.write(`1,000 appends, one MCP client, 64 in flight: ${elapsed} ms\n`);
    } finally {
      await mcp.close();
    }
  });

  it('1,000 appends from 4 clients at once, 64 in flight each, end with exactly 1,000 intact sections', async () => {
    await host.store.clear();
    const clients = await Promise.all(Array.from({ length: 4 }, () => connectMcp(hostEnv(host), host.workspace)));
    try {
      await Promise.all(
        clients.map((mcp, c) =>
          inFlightAtMost(
            MAX_CALLS_IN_FLIGHT,
            Array.from(
              { length: 250 },
              (_, i) => () =>
                mcp.client.callTool({
                  name: 'present-review',
                  arguments: {
                    content: `## C${c}-${i}\n\nline one of ${c}-${i}\nline two of ${c}-${i}`,
                    mode: 'append',
                  },
                }),
            ),
          ),
        ),
      );
      const review = host.store.current!;
      expect(review.sections).toHaveLength(1000);
      for (let c = 0; c < 4; c++) {
        for (let i = 0; i < 250; i++) {
          expect(review.markdown).toContain(`## C${c}-${i}\n\nline one of ${c}-${i}\nline two of ${c}-${i}`);
        }
      }
      // Within one client, arrival order is kept.
      const order = review.sections.map((s) => s.title).filter((t) => t.startsWith('C0-'));
      expect(order).toEqual(Array.from({ length: 250 }, (_, i) => `C0-${i}`));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('delivers a 10 MiB review intact', async () => {
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      const paragraph =
        'The handler at src/example.ts:42 retries forever; see `src/example.ts:10-12` and the notes below.\n\n';
      let content = '# Large review\n\n';
      while (content.length + paragraph.length < 10 * 1024 * 1024 - 64) content += paragraph;
      const started = Date.now();
      const result = await mcp.client.callTool(
        { name: 'present-review', arguments: { content } },
        { timeout: 120_000 },
      );
      const elapsed = Date.now() - started;
      expect(result.isError).toBeFalsy();
      expect(host.store.current!.markdown).toBe(content);
      // It comes back in pages, which join into what was sent.
      const pages: string[] = [];
      let cursor: string | undefined;
      do {
        const back = await mcp.client.callTool(
          { name: 'get-review', arguments: cursor === undefined ? {} : { cursor } },
          { timeout: 120_000 },
        );
        const page = back.structuredContent as { markdown: string; nextCursor?: string };
        pages.push(page.markdown);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(pages.join('')).toBe(content);
      process.stdout.write(`10 MiB review delivered and rendered in ${elapsed} ms\n`);
    } finally {
      await mcp.close();
    }
  });

  it('refuses a review over 10 MiB with a clear error and keeps the current one', async () => {
    const before = host.store.current;
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      const result = await mcp.client.callTool({
        name: 'present-review',
        arguments: { content: 'x'.repeat(10 * 1024 * 1024 + 1) },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/10485760|10 MiB|too_big|at most/i);
      expect(host.store.current).toBe(before);
    } finally {
      await mcp.close();
    }
  });
});
