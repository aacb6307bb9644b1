// The 2026-07-28 revision end to end, with the TypeScript SDK's client pinned to it: no initialize,
// the envelope on every request, subscriptions/listen for changes, and resources/list in pages.
// The built MCP server over stdio, the real IpcServer and the window's review store behind it.

import type { Resource } from '@modelcontextprotocol/client';
import { RESOURCES_PER_PAGE } from '../../mcp-server/src/resources/reviewResources';
import { assertBuilt, connectMcp, hostEnv, startHost, type Host } from './harness';
import { until } from '../support/until';

type Mcp = Awaited<ReturnType<typeof connectMcp>>;

/** More reviews than two pages hold, and fewer than the window's setting keeps. */
const HISTORY = 120;

describe('a client pinned to 2026-07-28', () => {
  let host: Host;
  let modern: Mcp;
  /** Another session of the same assistant, in the older revision: it changes the review under the first. */
  let other: Mcp;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost({ historySize: 200 });
    modern = await connectMcp(hostEnv(host), host.workspace, 'redline-test', [], 'modern');
    other = await connectMcp(hostEnv(host), host.workspace, 'redline-test', [], 'legacy');
  });
  afterAll(async () => {
    await modern?.close();
    await other?.close();
    await host?.stop();
  });

  it('connects without initialize, lists the tools, and presents a review the window keeps under its name', async () => {
    expect(modern.client.getProtocolEra()).toBe('modern');
    expect(modern.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(modern.stderr()).not.toContain('"method":"initialize"');
    const { tools } = await modern.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('present-review');
    const result = await modern.client.callTool({
      name: 'present-review',
      arguments: { content: '# Modern\n\n- **bug**: src/example.ts:3 is off by one\n' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ revision: 1, references: { total: 1, resolved: 1 } });
    // The name came in the request's envelope: the window filed the review under it.
    expect(host.reviews.all.find((review) => review.label === 'redline-test')?.store.current?.markdown).toContain(
      '# Modern',
    );
  });

  it('hears on its listen stream when the review changes and when the list of earlier reviews does', async () => {
    const heard = { updated: [] as string[], listChanged: 0 };
    modern.client.setNotificationHandler(
      'notifications/resources/updated',
      (notification) => void heard.updated.push(notification.params.uri),
    );
    modern.client.setNotificationHandler('notifications/resources/list_changed', () => void heard.listChanged++);
    const subscription = await modern.client.listen({
      resourceSubscriptions: ['redline://review/current'],
      resourcesListChanged: true,
    });
    try {
      expect(subscription.honoredFilter).toMatchObject({
        resourceSubscriptions: ['redline://review/current'],
        resourcesListChanged: true,
      });
      await other.client.callTool({
        name: 'present-review',
        arguments: { content: '\n## Appended by the other session\n', mode: 'append' },
      });
      await until(() => heard.updated.includes('redline://review/current'), 'the update after an append');
      await other.client.callTool({ name: 'present-review', arguments: { content: '# Replaced\n' } });
      await until(() => heard.listChanged > 0, 'resources/list_changed after a replace');
      // Only what the stream asked for: the selection was not. A review change broadcast after it
      // is heard after anything the selection's change would have brought.
      heard.updated.length = 0;
      host.server.broadcast('selection-changed', {});
      host.server.broadcast('review-changed', { revision: host.store.revision });
      await until(
        () => heard.updated.includes('redline://review/current'),
        'the update for the review changed after the selection',
      );
      expect(heard.updated).toEqual(['redline://review/current']);
    } finally {
      await subscription.close();
    }
  });

  it(`pages resources/list: the current review and the selection first, then earlier reviews newest first, ${RESOURCES_PER_PAGE} to a page`, async () => {
    for (let i = 0; i < HISTORY; i++)
      await host.reviews.all[0].store.present({ content: `# Review ${i}\n`, mode: 'replace' });
    const pages: Resource[][] = [];
    let cursor: string | undefined;
    do {
      // One page at a time, as the wire carries them: listResources() without a cursor walks them all.
      const page = await modern.client.request({
        method: 'resources/list',
        params: cursor === undefined ? {} : { cursor },
      });
      pages.push(page.resources);
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages.length < 10);

    expect(pages.map((page) => page.length)).toEqual([RESOURCES_PER_PAGE, RESOURCES_PER_PAGE, expect.any(Number)]);
    expect(pages[0].slice(0, 3).map((resource) => resource.uri)).toEqual([
      'redline://review/current',
      'redline://review/current.sarif',
      'redline://selection',
    ]);
    const revisions = pages
      .flat()
      .slice(3)
      .map((resource) => Number(resource.uri.split('/').pop()));
    const kept = (await host.reviews.all[0].history.list()).map((entry) => entry.revision);
    expect(revisions).toEqual(kept);
    expect(revisions).toEqual([...revisions].sort((a, b) => b - a));
    expect(revisions.length).toBeGreaterThan(2 * RESOURCES_PER_PAGE);

    await expect(modern.client.listResources({ cursor: 'not-ours' })).rejects.toThrow(/not a cursor Redline gave/);
    // And the SDK's own walk gets them all.
    expect((await modern.client.listResources()).resources).toHaveLength(3 + kept.length);
  });
});
