// The tools, end to end: SDK client → built MCP server (stdio) → socket → real IpcServer.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { LoggingMessageNotification } from '@modelcontextprotocol/server';
import { until } from '../support/until';
import { PUBLISHED_TOOLS } from './builtServer';
import {
  assertBuilt,
  callTool,
  connectMcp,
  exampleSelection,
  hostEnv,
  startHost,
  type Host,
  type ToolName,
  type ToolResult,
} from './harness';

describe('MCP tools over the real bridge', () => {
  let host: Host;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
    mcp = await connectMcp(hostEnv(host), host.workspace);
  });
  afterAll(async () => {
    await mcp?.close();
    await host?.stop();
  });

  const call = <N extends ToolName>(name: N, args: Record<string, unknown> = {}) => callTool(mcp.client, name, args);
  /** The tool's own data: its structured content without the window hint every result carries. */
  const data = <N extends ToolName>({ structuredContent }: ToolResult<N>) => {
    const { window: _window, ...rest } = structuredContent!;
    return rest;
  };

  it('lists the nine tools with schemas and all four annotation hints', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(PUBLISHED_TOOLS);
    for (const name of ['get-diagnostics', 'list-open-editors', 'get-workspace-folders']) {
      expect(tools.find((t) => t.name === name)?.annotations?.readOnlyHint).toBe(true);
    }
    for (const tool of tools) {
      expect(tool.outputSchema).toBeDefined();
      expect(tool.description!.length).toBeGreaterThan(80);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        expect(typeof tool.annotations?.[hint]).toBe('boolean');
      }
    }
  });

  it("get-diagnostics, list-open-editors and get-workspace-folders pass on the editor's answer, and refuse bad arguments", async () => {
    host.editor.diagnostics = {
      diagnostics: [
        {
          path: 'src/example.ts',
          workspaceFolder: host.workspace,
          start: { line: 3, column: 7 },
          end: { line: 3, column: 8 },
          severity: 'error',
          message: "Type 'string' is not assignable to type 'number'.",
          source: 'ts',
          code: 2322,
        },
      ],
      total: 1,
      truncated: false,
    };
    host.editor.editors = {
      editors: [
        {
          path: `${host.workspace}/src/example.ts`,
          relativePath: 'src/example.ts',
          languageId: 'typescript',
          isDirty: true,
          isActive: true,
          isVisible: true,
          group: 1,
        },
      ],
      truncated: false,
      outsideWorkspace: 2,
    };
    host.editor.folders = { folders: [{ name: 'ws', path: host.workspace }] };

    const diagnostics = await call('get-diagnostics', { file: 'src/example.ts', severity: 'warning' });
    expect(diagnostics.isError).toBeFalsy();
    expect(data(diagnostics)).toEqual(host.editor.diagnostics);
    expect(diagnostics.content[0].text).toContain(
      "src/example.ts:3:7 error [ts 2322]: Type 'string' is not assignable",
    );
    expect(host.editor.diagnosticsAsked.at(-1)).toEqual({ file: 'src/example.ts', severity: 'warning' });

    const editors = await call('list-open-editors');
    expect(data(editors)).toEqual(host.editor.editors);
    expect(editors.content[0].text).toBe(
      'src/example.ts (group 1, typescript, unsaved changes, active)\n[2 more open outside the workspace, not listed.]',
    );
    const folders = await call('get-workspace-folders');
    expect(data(folders)).toEqual(host.editor.folders);

    const refused = await call('get-diagnostics', { severity: 'fatal' });
    expect(refused.isError).toBe(true);
  });

  it("sends a 2025-era client MCP log messages only once it sets a level, at debug with the call's correlation id", async () => {
    // Logging is not part of 2026-07-28; a client that opens with initialize has it.
    const legacy = await connectMcp(hostEnv(host), host.workspace, 'redline-test', [], 'legacy');
    const call = (name: string) => legacy.client.callTool({ name, arguments: {} });
    try {
      const messages: LoggingMessageNotification['params'][] = [];
      legacy.client.setNotificationHandler(
        'notifications/message',
        (notification) => void messages.push(notification.params),
      );
      // A log message for a call is sent before the call's result, and the server answers a ping
      // (sent once the result is in) after it: one sent for the call would have arrived by then.
      const settle = () => legacy.client.ping();
      await call('get-review');
      await settle();
      expect(messages).toEqual([]);

      await legacy.client.setLoggingLevel('info');
      await call('get-review');
      await settle();
      expect(messages).toEqual([]);

      await legacy.client.setLoggingLevel('debug');
      await call('get-review');
      await until(
        () => messages.some((m) => (m.data as { event?: string }).event === 'reply'),
        "the log message for the call's reply",
      );
      const events = messages.map((m) => m.data as { event: string; id?: string; method?: string; status?: string });
      expect(messages.every((m) => m.level === 'debug' && m.logger === 'redline')).toBe(true);
      const request = events.find((e) => e.event === 'request');
      const reply = events.find((e) => e.event === 'reply');
      expect(request).toMatchObject({ method: 'get-review' });
      expect(reply).toMatchObject({ method: 'get-review', status: 'ok', id: request?.id });
      // The same id as in the stderr log, which reaches this process on a pipe of its own.
      await until(
        () => legacy.stderr().includes(`"id":"${request?.id}"`),
        `the request id ${request?.id} on the MCP server's stderr`,
      );
    } finally {
      await legacy.close();
    }
  });

  it('present-review shows the review and reports broken references', async () => {
    const content = [
      '# Review',
      '',
      'bug: the total is wrong at src/example.ts:42 and `src/example.ts:10-12`.',
      '',
      '## Problems',
      '',
      'See src/example.ts:999 and src/gone.ts:3.',
    ].join('\n');
    const result = await call('present-review', { content, title: 'Example' });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent!;
    expect(report.revision).toBe(host.store.revision);
    expect(report.sections.map((s: { title: string }) => s.title)).toEqual(['Review', 'Problems']);
    expect(report.sectionCount).toBe(2);
    expect(report.references.total).toBe(4);
    expect(report.references.resolved).toBe(2);
    const broken = report.references.broken.map((b: { reference: string; line: number }) => [b.reference, b.line]);
    expect(broken).toEqual([
      ['src/example.ts:999', 7],
      ['src/gone.ts:3', 7],
    ]);
    expect(result.content[0].text).toContain('src/gone.ts:3');
    // Claude Code and Codex give the model the structured content, not the text: the advice is there too.
    expect(report.nextSteps).toEqual([
      expect.stringMatching(/^Fix the 2 reference\(s\) in references\.broken .* then present again\.$/),
      expect.stringContaining('get-review-feedback'),
    ]);
    const feedback = (await call('get-review-feedback')).structuredContent!;
    expect(feedback.nextSteps).toEqual([`Pass "${feedback.cursor}" as "since" next time to get only newer items.`]);
    expect(host.store.current?.markdown).toBe(content);
    expect(host.store.current?.title).toBe('Example');
    // The server sent its own cwd, so relative references resolve where the assistant runs.
    expect(host.store.current?.cwd).toBe(host.workspace);
  });

  it('update-section replaces one section and append adds one', async () => {
    await call('present-review', { content: '# R\n\n## A\n\nold\n\n## B\n\nkeep' });
    await call('present-review', { content: 'new body', mode: 'update-section', section: 'A' });
    const appended = await call('present-review', { content: '## C\n\nlast', mode: 'append' });
    // An append reports the sections it added, and how many there are in all.
    expect(appended.structuredContent!.sections.map((s: { title: string }) => s.title)).toEqual(['C']);
    expect(appended.structuredContent!.sectionCount).toBe(4);
    const review = await call('get-review');
    expect(review.structuredContent!.markdown).toBe('# R\n\n## A\n\nnew body\n\n## B\n\nkeep\n\n## C\n\nlast');
    expect(review.structuredContent!.revision).toBe(appended.structuredContent!.revision);
  });

  it("gives a repeated finding the same id in present-review's reply as in get-review, after an append and a section update", async () => {
    const same = '- **bug**: the total ignores coupons at src/example.ts:3';
    const first = await call('present-review', { content: `# R\n\n## A\n\n${same}\n\n## B\n\nnothing yet` });
    const [original] = first.structuredContent!.findings;
    const appended = await call('present-review', { content: `## C\n\n${same}\n\n${same}`, mode: 'append' });
    const updated = await call('present-review', { content: same, mode: 'update-section', section: 'B' });
    const all = (await call('get-review')).structuredContent!.findings.map((finding: { id: string }) => finding.id);
    // In the review's order: A's, B's (updated), then C's two.
    expect(all).toEqual([original.id, `${original.id}-2`, `${original.id}-3`, `${original.id}-4`]);
    expect(appended.structuredContent!.findings.map((finding: { id: string }) => finding.id)).toEqual([
      `${original.id}-2`,
      `${original.id}-3`,
    ]);
    expect(updated.structuredContent!.findings.map((finding: { id: string }) => finding.id)).toEqual([
      `${original.id}-2`,
    ]);
  });

  it('update-section without a section is a clear tool error', async () => {
    const result = await call('present-review', { content: 'x', mode: 'update-section' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/section/);
    expect(result.content[1].text).toMatch(/^Error code: \w+\. Calling again as it is will not help/);
    expect(result.structuredContent).toBeUndefined();
  });

  it('says in every result which window answered and how it was found', async () => {
    for (const tool of ['get-selection', 'get-review', 'get-workspace-folders'] as const) {
      const result = await call(tool);
      expect([tool, result.structuredContent!.window]).toEqual([tool, 'the window named by REDLINE_IPC_PATH']);
    }
  });

  it('get-selection reports the editor, or says plainly that none is open', async () => {
    host.editor.selection = { editor: null };
    const none = await call('get-selection');
    expect(none.isError).toBeFalsy();
    expect(data(none)).toEqual({ editor: null });
    expect(none.content[0].text).toMatch(/No editor is open/);

    host.editor.selection = exampleSelection(
      host.workspace,
      { start: { line: 3, column: 1 }, end: { line: 4, column: 5 }, text: 'selected text' },
      true,
    );
    const some = await call('get-selection');
    expect(some.structuredContent!.editor!.selections[0].text).toBe('selected text');
    expect(some.content[0].text).toContain('src/example.ts (typescript, unsaved changes)');
    expect(some.content[0].text).toContain('Selected 3:1-4:5');
  });

  it('get-selection says when it cut the text, and when the text is withheld and why', async () => {
    const editor = {
      path: '/elsewhere/notes.txt',
      relativePath: null,
      workspaceFolder: null,
      languageId: 'plaintext',
      isDirty: false,
      isUntitled: false,
      lineCount: 9,
    };
    host.editor.selection = {
      editor: {
        ...editor,
        selections: [
          {
            start: { line: 1, column: 1 },
            end: { line: 9, column: 1 },
            isEmpty: false,
            text: 'the start',
            truncated: true,
          },
        ],
      },
    };
    const cut = await call('get-selection');
    expect(cut.isError).toBeFalsy();
    expect(cut.structuredContent!.editor!.selections[0].truncated).toBe(true);
    expect(cut.content[0].text).toMatch(/the start\n\[Cut here: get-selection returns at most 64 KiB of text/);

    host.editor.selection = {
      editor: {
        ...editor,
        selections: [
          { start: { line: 3, column: 1 }, end: { line: 3, column: 9 }, isEmpty: false, text: '', withheld: true },
        ],
      },
    };
    const withheld = await call('get-selection');
    expect(withheld.structuredContent!.editor!.selections[0].withheld).toBe(true);
    expect(withheld.content[0].text).toContain('Selected 3:1-3:9; its text is withheld');
    expect(withheld.content[0].text).toContain('Ask the user to select the lines');
  });

  it('open-location reports a file the user declined to open as a tool error that says so', async () => {
    const declined = await call('open-location', { reference: '/outside/secret.txt:1' });
    expect(declined.isError).toBe(true);
    expect(declined.content[0].text).toContain('The user declined to open /outside/secret.txt:1');
  });

  it('open-location passes the reference and the cwd, and reports a missing file as a tool error', async () => {
    const ok = await call('open-location', { reference: 'src/example.ts:42' });
    expect(ok.structuredContent!.start.line).toBe(42);
    expect(host.editor.opened.at(-1)).toEqual({ reference: 'src/example.ts:42', cwd: host.workspace });
    const missing = await call('open-location', { reference: 'src/missing.ts:1' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toContain('no such file');
  });

  it('get-review with nothing shown says so', async () => {
    await host.store.clear();
    const result = await call('get-review');
    expect(result.structuredContent!.markdown).toBe('');
    expect(result.content[0].text).toMatch(/No review is shown/);
  });
});

describe('MCP server without a VS Code to talk to', () => {
  beforeAll(assertBuilt);

  // A runtime dir of its own, so that no window of this machine is discovered.
  let runtime: string;
  beforeEach(() => (runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-nowin-'))));
  afterEach(() => fs.rmSync(runtime, { recursive: true, force: true }));

  it('still lists its tools, and a call explains what to do', async () => {
    const mcp = await connectMcp({
      REDLINE_IPC_PATH: undefined,
      REDLINE_IPC_TOKEN: undefined,
      XDG_RUNTIME_DIR: runtime,
      TMPDIR: runtime,
      REDLINE_RUNTIME_DIR: runtime,
    });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools).toHaveLength(9);
      const result = await callTool(mcp.client, 'present-review', { content: '# x' });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^No VS Code window/);
      expect(result.content[0].text).toMatch(/Open the project in VS Code|Choose one/);
      // Its code after it, and no structured content, which an SDK 1.x client would check against the output schema.
      expect(result.content[1].text).toBe(
        'Error code: NotConfigured. Calling again as it is will not help; do what the message says first.',
      );
      expect(result.structuredContent).toBeUndefined();
      // stdout carried only JSON-RPC (the SDK would have failed to parse anything else); logs are JSON lines on stderr.
      for (const line of mcp.stderr().trim().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await mcp.close();
    }
  });

  it('says the socket is unreachable when the window is gone', async () => {
    const mcp = await connectMcp({
      REDLINE_IPC_PATH: '/tmp/redline-does-not-exist.sock',
      REDLINE_IPC_TOKEN: 'x'.repeat(32),
      XDG_RUNTIME_DIR: runtime,
      TMPDIR: runtime,
      REDLINE_RUNTIME_DIR: runtime,
    });
    try {
      const result = await callTool(mcp.client, 'get-review', {});
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(
        /^No VS Code window listens at \/tmp\/redline-does-not-exist.sock any more/,
      );
    } finally {
      await mcp.close();
    }
  });
});
