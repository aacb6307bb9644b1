// Resources, their subscriptions, and the prompts, end to end: SDK clients → the built MCP server
// (stdio) → socket → the real IpcServer, with the window's events as the extension sends them.
// The clients open with initialize, as Codex and Gemini CLI do: resources/subscribe is of that era
// (mcpModernEra.test.ts has the 2026-07-28 side: subscriptions/listen, the paged list).

import type { ResourceUpdatedNotification } from '@modelcontextprotocol/server';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lowestOf } from '../support/lowestOf';
import { until } from '../support/until';
import { assertBuilt, connectMcp, exampleSelection, hostEnv, startHost, type Host } from './harness';

type Mcp = Awaited<ReturnType<typeof connectMcp>>;

/** Records the resource notifications a client receives. */
function listen(mcp: Mcp): { updated: string[]; listChanged: number } {
  const heard = { updated: [] as string[], listChanged: 0 };
  mcp.client.setNotificationHandler('notifications/resources/updated', (notification: ResourceUpdatedNotification) => {
    heard.updated.push(notification.params.uri);
  });
  mcp.client.setNotificationHandler('notifications/resources/list_changed', () => {
    heard.listChanged++;
  });
  return heard;
}

const text = (result: { contents: Array<{ text?: unknown; blob?: unknown }> }) => result.contents[0].text as string;

describe('MCP resources and prompts over the real bridge', () => {
  let host: Host;
  let reader: Mcp;
  let presenter: Mcp;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
    // Two sessions of the same assistant (two terminals): they share its review.
    reader = await connectMcp(hostEnv(host), host.workspace, undefined, [], 'legacy');
    presenter = await connectMcp(hostEnv(host), host.workspace, undefined, [], 'legacy');
  });
  afterAll(async () => {
    await reader?.close();
    await presenter?.close();
    await host?.stop();
  });

  const present = (content: string, mode = 'replace') =>
    presenter.client.callTool({ name: 'present-review', arguments: { content, mode, title: content.slice(2, 20) } });

  it('declares resources with subscriptions, prompts and completions', () => {
    expect(reader.client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true, listChanged: true },
      prompts: {},
      completions: {},
      logging: {},
    });
  });

  it('reads the current review as markdown, empty before anything is presented', async () => {
    const before = await reader.client.readResource({ uri: 'redline://review/current' });
    expect(before.contents[0]).toMatchObject({ uri: 'redline://review/current', mimeType: 'text/markdown', text: '' });
    await present('# First review\n\n- **bug**: off by one at src/example.ts:3\n');
    const after = await reader.client.readResource({ uri: 'redline://review/current' });
    expect(text(after)).toBe('# First review\n\n- **bug**: off by one at src/example.ts:3\n');
  });

  it('tells a subscriber when another client presents, appends, and when the user answers', async () => {
    const heard = listen(reader);
    await reader.client.subscribeResource({ uri: 'redline://review/current' });
    await present('\n## More\n\n- nit: naming at src/example.ts:7\n', 'append');
    await until(() => heard.updated.includes('redline://review/current'), 'the update after an append');
    expect(text(await reader.client.readResource({ uri: 'redline://review/current' }))).toContain('## More');

    heard.updated.length = 0;
    const [finding] = await host.findings.current();
    await host.conversation.add({
      kind: 'reply',
      findingId: finding.id,
      text: 'Fixed in the next commit.',
      reference: finding.reference,
    });
    await until(() => heard.updated.length > 0, 'the update after the user replied');

    await reader.client.unsubscribeResource({ uri: 'redline://review/current' });
    heard.updated.length = 0;
    await present('\n- nit: one more at src/example.ts:9\n', 'append');
    // The window broadcast its event before it answered the presenter, so the reader's connection
    // carries it before the reply to a read made now, and the reader's server would have sent its
    // notification before the read's result.
    await reader.client.readResource({ uri: 'redline://review/current' });
    expect(heard.updated).toEqual([]);
  });

  it("tells a subscriber nothing when another assistant changes its own review, or when that assistant's user answers", async () => {
    const other = await connectMcp(hostEnv(host), host.workspace, 'other-assistant', [], 'legacy');
    try {
      const heard = listen(reader);
      await reader.client.subscribeResource({ uri: 'redline://review/current' });
      await other.client.callTool({
        name: 'present-review',
        arguments: { content: '# Theirs\n\n- nit: naming at src/example.ts:7\n', title: 'Theirs' },
      });
      const theirs = host.reviews.lookup('other-assistant')!;
      const [finding] = await theirs.findings.current();
      await theirs.conversation.add({
        kind: 'reply',
        findingId: finding.id,
        text: 'Not mine to hear.',
        reference: finding.reference,
      });
      // Its own review changing still reaches it: the control that the events arrive at all.
      await present('\n- nit: and another at src/example.ts:9\n', 'append');
      await until(() => heard.updated.includes('redline://review/current'), 'the update for its own review');
      expect(heard.updated).toEqual(['redline://review/current']);
      await reader.client.unsubscribeResource({ uri: 'redline://review/current' });
    } finally {
      await other.close();
    }
  });

  it('lists earlier reviews through the template, completes their index, and says when the list changes', async () => {
    const heard = listen(reader);
    const { resourceTemplates } = await reader.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'redline://review/history/{index}', mimeType: 'text/markdown' }),
    ]);

    const firstRevision = host.store.revision;
    await present('# Second review\n\nAll good at src/example.ts:1\n');
    await until(() => heard.listChanged > 0, 'resources/list_changed after a replace');

    const { resources } = await reader.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'redline://review/current',
      'redline://review/current.sarif',
      'redline://selection',
      `redline://review/history/${firstRevision}`,
    ]);
    const earlier = resources[3];
    expect(earlier).toMatchObject({
      mimeType: 'text/markdown',
      title: expect.stringContaining(`revision ${firstRevision}`),
    });
    expect(earlier.size).toBeGreaterThan(0);
    expect(text(await reader.client.readResource({ uri: earlier.uri }))).toContain('# First review');

    const completion = await reader.client.complete({
      ref: { type: 'ref/resource', uri: 'redline://review/history/{index}' },
      argument: { name: 'index', value: '' },
    });
    expect(completion.completion.values).toEqual([String(firstRevision)]);
    const none = await reader.client.complete({
      ref: { type: 'ref/resource', uri: 'redline://review/history/{index}' },
      argument: { name: 'index', value: '9' },
    });
    expect(none.completion.values).toEqual([]);

    await expect(reader.client.readResource({ uri: 'redline://review/history/999' })).rejects.toThrow(
      /No earlier review with revision 999/,
    );
    await expect(reader.client.readResource({ uri: 'redline://review/history/abc' })).rejects.toThrow(
      /names no earlier review/,
    );
  });

  it('lists resources at once with no window, and says when the earlier reviews can be listed', async () => {
    const nowhere = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-no-window-'));
    const alone = await connectMcp(
      {
        REDLINE_IPC_PATH: path.join(nowhere, 'gone.sock'),
        REDLINE_IPC_TOKEN: 'a'.repeat(32),
        XDG_RUNTIME_DIR: nowhere,
        TMPDIR: nowhere,
        REDLINE_RUNTIME_DIR: nowhere,
      },
      nowhere,
    );
    try {
      // It used to wait out the window retries (3.4 s); a generous bound, not a timing test.
      const tookMs = await lowestOf(async () => {
        const started = performance.now();
        const { resources } = await alone.client.listResources(undefined, { cacheMode: 'bypass' });
        const ms = performance.now() - started;
        process.stdout.write(`[resources] resources/list with no window: ${ms.toFixed(0)} ms\n`);
        expect(resources.map((resource) => resource.uri)).toEqual([
          'redline://review/current',
          'redline://review/current.sarif',
          'redline://selection',
        ]);
        return ms;
      }, 1_500);
      expect(tookMs).toBeLessThan(1_500);
    } finally {
      await alone.close();
      fs.rmSync(nowhere, { recursive: true, force: true });
    }

    // A new session of an assistant with history: the first list does not wait for the window; a
    // list_changed says when the earlier reviews are there.
    await present('# Another review\n');
    const fresh = await connectMcp(hostEnv(host), host.workspace, undefined, [], 'legacy');
    try {
      const heard = listen(fresh);
      const first = await fresh.client.listResources();
      const hasHistory = (list: typeof first) =>
        list.resources.some((resource) => resource.uri.startsWith('redline://review/history/'));
      if (!hasHistory(first))
        await until(() => heard.listChanged > 0, 'resources/list_changed once the window is reached');
      expect(hasHistory(await fresh.client.listResources())).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('reads the selection as JSON and tells a subscriber when it moves', async () => {
    host.editor.selection = exampleSelection(host.workspace, {
      start: { line: 3, column: 1 },
      end: { line: 4, column: 30 },
      text: 'export const line3 = 3;\nexport const line4 = 4;',
    });
    const read = await reader.client.readResource({ uri: 'redline://selection' });
    expect(read.contents[0].mimeType).toBe('application/json');
    expect(JSON.parse(text(read))).toEqual(host.editor.selection);

    const heard = listen(reader);
    await reader.client.subscribeResource({ uri: 'redline://selection' });
    host.server.broadcast('selection-changed', {});
    await until(() => heard.updated.includes('redline://selection'), 'the selection update');
    await reader.client.unsubscribeResource({ uri: 'redline://selection' });
  });

  it('refuses to subscribe to what is not a Redline resource, and to more than 100 at once', async () => {
    await expect(reader.client.subscribeResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(
      /Redline has no resource file:\/\/\/etc\/passwd/,
    );
    const earlier = Array.from({ length: 100 }, (_, i) => `redline://review/history/${1000 + i}`);
    for (const uri of earlier) await reader.client.subscribeResource({ uri });
    await expect(reader.client.subscribeResource({ uri: 'redline://review/history/2000' })).rejects.toThrow(
      /Already subscribed to 100 resources/,
    );
    // The same one again is not one more; and unsubscribing makes room.
    await reader.client.subscribeResource({ uri: earlier[0] });
    await reader.client.unsubscribeResource({ uri: earlier[0] });
    await reader.client.subscribeResource({ uri: 'redline://review/history/2000' });
    for (const uri of [...earlier.slice(1), 'redline://review/history/2000'])
      await reader.client.unsubscribeResource({ uri });
  });

  it('keeps a subscription across a window restart, and says the resource may have changed meanwhile', async () => {
    // A client that only subscribes, and never calls a tool, still has a connection for events.
    const watcher = await connectMcp(hostEnv(host), host.workspace, undefined, [], 'legacy');
    try {
      const heard = listen(watcher);
      await watcher.client.subscribeResource({ uri: 'redline://review/current' });
      await until(() => host.server.authenticatedCount >= 3, 'the watcher connecting to the window');
      await host.restart();
      await until(() => heard.updated.includes('redline://review/current'), 'the update after reconnecting', 15_000);
      heard.updated.length = 0;
      await present('# After the restart\n');
      await until(() => heard.updated.includes('redline://review/current'), 'the update after a present');
    } finally {
      await watcher.close();
    }
  });

  describe('prompts', () => {
    it('lists review-changes, review-file and explain-selection with their arguments', async () => {
      const { prompts } = await reader.client.listPrompts();
      expect(
        prompts.map((prompt) => [
          prompt.name,
          (prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required ? '' : '?'}`),
        ]),
      ).toEqual([
        ['review-changes', ['base?', 'paths?']],
        ['review-file', ['file']],
        ['explain-selection', []],
      ]);
    });

    it('review-changes names the base and paths in a quoted git command, and teaches how to present', async () => {
      const result = await reader.client.getPrompt({
        name: 'review-changes',
        arguments: { base: 'origin/main', paths: "src/a.ts it's.ts" },
      });
      const body = (result.messages[0].content as { text: string }).text;
      expect(result.messages[0].role).toBe('user');
      expect(body).toContain(`git diff 'origin/main' -- 'src/a.ts' 'it'\\''s.ts'`);
      expect(body).toContain('present-review');
      expect(body).toContain('mode "append"');
      expect(body).toContain('mode "update-section"');
      expect(body).toContain('path:line (src/auth.ts:42)');

      const byDefault = await reader.client.getPrompt({ name: 'review-changes', arguments: {} });
      expect((byDefault.messages[0].content as { text: string }).text).toContain("git diff 'HEAD'");
    });

    it('review-changes refuses a base that is not one git revision', async () => {
      for (const base of ['--output=/tmp/x', 'main; rm -rf ~', 'a..b', 'main\nHEAD']) {
        await expect(reader.client.getPrompt({ name: 'review-changes', arguments: { base } })).rejects.toThrow(
          /base must be one git revision/,
        );
      }
    });

    it("completes review-changes' base from the window's refs, and paths and review-file's file from its files", async () => {
      host.editor.refs = [
        { name: 'HEAD', kind: 'head' },
        { name: 'main', kind: 'branch' },
        { name: 'feature/login', kind: 'branch' },
        { name: 'origin/main', kind: 'remote' },
        { name: 'v1.0', kind: 'tag' },
      ];
      host.editor.files = ['src/example.ts', 'src/server/app.ts', 'README.md'];
      const complete = (name: string, argument: string, value: string) =>
        reader.client
          .complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } })
          .then((result) => result.completion.values);

      expect(await complete('review-changes', 'base', '')).toEqual([
        'HEAD',
        'main',
        'feature/login',
        'origin/main',
        'v1.0',
      ]);
      expect(await complete('review-changes', 'base', 'ma')).toEqual(['main']);
      expect(await complete('review-file', 'file', 'src/')).toEqual(['src/example.ts', 'src/server/app.ts']);
      expect(await complete('review-file', 'file', 'app')).toEqual(['src/server/app.ts']);
      expect(await complete('review-changes', 'paths', 'README.md src/ex')).toEqual(['README.md src/example.ts']);
    });

    it('explain-selection carries the selected code, fenced, and refuses when nothing is selected', async () => {
      host.editor.selection = exampleSelection(
        host.workspace,
        { start: { line: 3, column: 1 }, end: { line: 4, column: 4 }, text: 'const a = 1;\n```\nx' },
        true,
      );
      const result = await reader.client.getPrompt({ name: 'explain-selection' });
      const body = (result.messages[0].content as { text: string }).text;
      expect(body).toContain('src/example.ts:3-4\n````typescript\nconst a = 1;\n```\nx\n````');
      expect(body).toContain('unsaved changes');
      expect(body).toContain('present-review');

      host.editor.selection = { editor: null };
      await expect(reader.client.getPrompt({ name: 'explain-selection' })).rejects.toThrow(
        /Nothing is selected in VS Code/,
      );
    });
  });
});
