// Redline inside a real extension host: activation, the bridge a terminal sees, and the four MCP
// tools driven through the packaged MCP server over stdio, checked against the editor's state.
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');
const { connectMcp, redline, runEnvironment, terminalIpcEnv, waitFor, workspaceRoot } = require('./helpers');
const PUBLISHED_TOOLS = require('../../integration/publishedTools.json');

const EXAMPLE = 'src/example.ts';

describe('Redline in a real extension host', () => {
  /** @type {vscode.Extension<any>} */
  let extension;
  /** @type {{ store: any, bridge: () => any, panel: () => any }} */
  let api;

  before(async () => {
    ({ extension, api } = await redline());
  });

  it('activates from the packaged extension, with every command registered', async () => {
    assert.equal(extension.isActive, true);
    assert.ok(
      api && api.store && typeof api.bridge === 'function' && typeof api.panel === 'function',
      'activate() returns the test API',
    );
    assert.ok(api.bridge(), 'the bridge started (see the "Redline" output channel for why not)');
    assert.ok(
      fs.existsSync(path.join(extension.extensionPath, 'dist', 'mcp-server.js')),
      'the package contains dist/mcp-server.js',
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = extension.packageJSON.contributes.commands.map((command) => command.command);
    assert.deepEqual(
      contributed.filter((id) => !registered.has(id)),
      [],
      'contributed commands that are not registered',
    );
  });

  it('puts REDLINE_IPC_PATH and REDLINE_IPC_TOKEN into a new integrated terminal', async () => {
    const env = await terminalIpcEnv();
    assert.equal(env.REDLINE_IPC_PATH, api.bridge().socketPath);
    assert.match(env.REDLINE_IPC_TOKEN ?? '', /^[0-9a-f]{32}$/);
    assert.equal(env.REDLINE_IPC_TOKEN, api.bridge().token);
  });

  it('listens on a socket only its user can use: 0600, in a 0700 directory', async () => {
    const env = await terminalIpcEnv();
    const socket = fs.realpathSync(env.REDLINE_IPC_PATH);
    const stat = fs.statSync(socket);
    assert.ok(stat.isSocket(), `${socket} is a socket`);
    assert.equal((stat.mode & 0o777).toString(8), '600', `mode of ${socket}`);
    assert.equal(stat.uid, process.getuid());
    const directory = fs.statSync(path.dirname(socket));
    assert.equal((directory.mode & 0o777).toString(8), '700', `mode of ${path.dirname(socket)}`);
    assert.equal(directory.uid, process.getuid());
  });

  describe("through the packaged MCP server, started with a terminal's environment", () => {
    let mcp;
    let presented;

    before(async () => {
      const env = await terminalIpcEnv();
      mcp = await connectMcp({
        serverPath: path.join(extension.extensionPath, 'dist', 'mcp-server.js'),
        env: { REDLINE_IPC_PATH: env.REDLINE_IPC_PATH, REDLINE_IPC_TOKEN: env.REDLINE_IPC_TOKEN },
        cwd: workspaceRoot(),
      });
    });

    after(async () => {
      await mcp?.close();
    });

    it('offers the nine tools', async () => {
      const { tools } = await mcp.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), PUBLISHED_TOOLS);
    });

    it('present-review stores the review, reports broken references, and the panel paints it', async () => {
      const markdown = [
        '# Pricing review',
        '',
        '## Findings',
        '',
        `- The discount is not rounded: ${EXAMPLE}:42`,
        `- \`Order\` allows an empty item list: ${EXAMPLE}:10-20`,
        '- `formatMoney` hard-codes the currency: src/util.ts#L3',
        '- The old helper is gone: src/missing.ts:7',
        '',
        '```ts',
        'const total = subtotal - discount + tax;',
        '```',
        '',
      ].join('\n');
      presented = await mcp.call('present-review', { content: markdown, title: 'Pricing review' });

      assert.equal(presented.title, 'Pricing review');
      assert.deepEqual(presented.sections, [
        { level: 1, title: 'Pricing review', line: 1 },
        { level: 2, title: 'Findings', line: 3 },
      ]);
      assert.equal(presented.references.total, 4);
      assert.equal(presented.references.resolved, 3);
      assert.equal(presented.references.broken.length, 1);
      assert.equal(presented.references.broken[0].reference, 'src/missing.ts:7');
      assert.equal(presented.references.broken[0].line, 8);

      assert.equal(api.store.revision, presented.revision);
      assert.equal(api.store.current.markdown, markdown);
      assert.equal(api.store.current.title, 'Pricing review');
      assert.equal(api.store.current.cwd, workspaceRoot(), 'the MCP server sends its cwd');

      // No panel was open: the review opens one, and the webview acknowledges the painted revision.
      const panel = await waitFor(() => api.panel(), 'the review panel to open');
      await waitFor(
        () => panel.renderedRevision === presented.revision,
        `the webview to paint revision ${presented.revision}`,
      );
    });

    it('present-review append adds to the review and get-review returns the whole of it', async () => {
      const before = api.store.current.markdown;
      const appended = await mcp.call('present-review', {
        content: '## Later\n\nOne more thing: src/util.ts:7',
        mode: 'append',
      });
      assert.equal(appended.revision, presented.revision + 1);
      // An append reports the sections it added, and how many the review has now.
      assert.deepEqual(
        appended.sections.map((section) => section.title),
        ['Later'],
      );
      assert.equal(appended.sectionCount, 3);
      const review = await mcp.call('get-review');
      assert.equal(review.revision, appended.revision);
      assert.deepEqual(
        review.sections.map((section) => section.title),
        ['Pricing review', 'Findings', 'Later'],
      );
      assert.ok(review.markdown.startsWith(before.trimEnd()), 'the earlier review is kept');
      assert.ok(review.markdown.endsWith('One more thing: src/util.ts:7'), 'the appended part is at the end');
      await waitFor(
        () => api.panel()?.renderedRevision === appended.revision,
        `the webview to paint revision ${appended.revision}`,
      );
      presented = appended;
    });

    it('get-selection returns the selection the user made, 1-based, with its text', async () => {
      const document = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), EXAMPLE));
      const editor = await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.One,
        preview: false,
      });
      // Line 12, column 3 to line 14, column 11 in the editor's 1-based terms.
      const range = new vscode.Range(11, 2, 13, 10);
      editor.selection = new vscode.Selection(range.start, range.end);

      const { editor: info } = await mcp.call('get-selection');
      assert.ok(info, 'get-selection sees an editor');
      assert.equal(info.path, document.uri.fsPath);
      assert.equal(info.relativePath, EXAMPLE);
      assert.equal(info.workspaceFolder, workspaceRoot());
      assert.equal(info.languageId, 'typescript');
      assert.equal(info.isDirty, false);
      assert.equal(info.lineCount, document.lineCount);
      assert.equal(info.selections.length, 1);
      const [selection] = info.selections;
      assert.deepEqual(selection.start, { line: 12, column: 3 });
      assert.deepEqual(selection.end, { line: 14, column: 11 });
      assert.equal(selection.isEmpty, false);
      assert.equal(selection.text, document.getText(range));
      assert.ok(selection.text.startsWith('readonly id: string;'), `selected text: ${JSON.stringify(selection.text)}`);
    });

    it('open-location opens the file with the range selected', async () => {
      // Something else in front first, so that the tool has to switch editors.
      await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument(path.join(workspaceRoot(), 'src/util.ts')),
        {
          viewColumn: vscode.ViewColumn.One,
        },
      );
      const result = await mcp.call('open-location', { reference: `${EXAMPLE}:30-35` });
      const document = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), EXAMPLE));
      assert.equal(result.path, document.uri.fsPath);
      assert.deepEqual(result.start, { line: 30, column: 1 });
      assert.deepEqual(result.end, { line: 35, column: document.lineAt(34).text.length + 1 });

      const editor = await waitFor(
        () =>
          vscode.window.activeTextEditor?.document.uri.fsPath === document.uri.fsPath && vscode.window.activeTextEditor,
        `${EXAMPLE} to be the active editor`,
      );
      const { selection } = editor;
      assert.equal(selection.start.line, 29);
      assert.equal(selection.start.character, 0);
      assert.equal(selection.end.line, 34);
      assert.equal(selection.end.character, document.lineAt(34).text.length);
      assert.equal(selection.active.line, 29, 'the cursor is on the first line of the range');
      assert.ok(
        editor.visibleRanges.some((visible) => visible.contains(selection)),
        'the range is scrolled into view',
      );
    });

    it('open-location refuses a missing file and says what is wrong', async () => {
      const result = await mcp.raw('open-location', { reference: 'src/missing.ts:3' });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /src\/missing\.ts/);
    });

    it("get-diagnostics reports TypeScript's type error, list-open-editors its editor, get-workspace-folders the folder", async function () {
      this.timeout(120_000);
      const file = path.join(workspaceRoot(), 'src/typeError.ts');
      fs.writeFileSync(file, "export const count: number = 'three';\n");
      try {
        const document = await vscode.workspace.openTextDocument(file);
        await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One });
        // The TypeScript server starts with the first TypeScript file: allow it time.
        await waitFor(
          () =>
            vscode.languages.getDiagnostics(document.uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error),
          "TypeScript's diagnostics for src/typeError.ts",
          90_000,
        );
        const report = await mcp.call('get-diagnostics', { file: 'src/typeError.ts', severity: 'error' });
        assert.equal(report.total, 1, JSON.stringify(report));
        const [error] = report.diagnostics;
        assert.equal(error.path, 'src/typeError.ts');
        assert.equal(error.severity, 'error');
        assert.equal(error.source, 'ts');
        assert.equal(error.code, 2322);
        assert.deepEqual(error.start, { line: 1, column: 14 });
        assert.match(error.message, /not assignable to type 'number'/);
        const all = await mcp.call('get-diagnostics');
        assert.ok(
          all.diagnostics.every((d) => !d.path.startsWith('..')),
          'only files of the workspace',
        );

        const { editors } = await mcp.call('list-open-editors');
        const shown = editors.find((editor) => editor.path === document.uri.fsPath);
        assert.deepEqual(shown, {
          path: document.uri.fsPath,
          relativePath: 'src/typeError.ts',
          languageId: 'typescript',
          isDirty: false,
          isActive: true,
          isVisible: true,
          group: 1,
        });

        // A file outside the workspace is counted, never named.
        const outsideDir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-outside-'));
        const outsideFile = path.join(outsideDir, 'private-notes.txt');
        fs.writeFileSync(outsideFile, "not the assistant's\n");
        try {
          await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(outsideFile), {
            viewColumn: vscode.ViewColumn.One,
            preview: false,
          });
          const listed = await mcp.call('list-open-editors');
          assert.ok(listed.outsideWorkspace >= 1, JSON.stringify(listed));
          assert.ok(!JSON.stringify(listed).includes(outsideDir), JSON.stringify(listed));
          await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        } finally {
          fs.rmSync(outsideDir, { recursive: true, force: true });
        }

        const { folders } = await mcp.call('get-workspace-folders');
        assert.deepEqual(folders, [{ name: path.basename(workspaceRoot()), path: workspaceRoot() }]);
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        fs.rmSync(file, { force: true });
      }
    });

    it('the command line: present FILE.md shows the file and exits 0; a missing file exits 2 and says so; status names the window', async () => {
      const env = await terminalIpcEnv();
      const file = path.join(workspaceRoot(), 'from-the-command-line.md');
      fs.writeFileSync(file, '# From the command line\n\nSee src/example.ts:42.\n');
      try {
        // Asynchronously: this extension host is the one that answers it.
        const cli = (args) =>
          new Promise((resolve) => {
            execFile(
              process.execPath,
              [path.join(extension.extensionPath, 'dist', 'mcp-server.js'), ...args],
              {
                cwd: workspaceRoot(),
                env: { PATH: process.env.PATH, ELECTRON_RUN_AS_NODE: '1', ...runEnvironment(), ...env },
                timeout: 30_000,
              },
              (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
            );
          });
        const shown = await cli(['present', 'from-the-command-line.md', '--title', 'CLI review']);
        assert.equal(shown.code, 0, shown.stderr);
        assert.match(shown.stdout, /^Presented revision \d+: 1 of 1 references resolved\.$/m);
        assert.equal(api.store.current.markdown, fs.readFileSync(file, 'utf8'));
        assert.equal(api.store.current.title, 'CLI review');
        await waitFor(() => api.panel()?.renderedRevision === api.store.revision, 'the panel to paint the review');

        const missing = await cli(['present', 'no-such-review.md']);
        assert.equal(missing.code, 2);
        assert.match(missing.stderr, /Cannot read no-such-review\.md: no such file/);

        const printed = await cli(['get-review']);
        assert.equal(printed.code, 0, printed.stderr);
        assert.equal(printed.stdout, fs.readFileSync(file, 'utf8'));

        const status = await cli(['status']);
        assert.equal(status.code, 0, status.stderr);
        assert.equal(
          status.stdout,
          `Reaches the window named by REDLINE_IPC_PATH\n  socket: ${env.REDLINE_IPC_PATH}\n  folders: ${workspaceRoot()}\n`,
        );
      } finally {
        fs.rmSync(file, { force: true });
      }
    });

    it('shows the same review again after its panel was closed', async () => {
      const revision = api.store.revision;
      const panel = api.panel();
      assert.ok(panel, 'a panel is open');
      panel.dispose();
      assert.equal(api.panel(), undefined, 'the panel is gone');

      await vscode.commands.executeCommand('redline.showReview');
      const reopened = await waitFor(() => api.panel(), 'redline.showReview to open a panel');
      assert.notEqual(reopened, panel);
      await waitFor(() => reopened.renderedRevision === revision, `the new webview to paint revision ${revision}`);
      const review = await mcp.call('get-review');
      assert.equal(review.revision, revision);
    });

    it('clears the review: the panel shows the empty state and get-review is empty', async () => {
      await vscode.commands.executeCommand('redline.clearReview');
      await waitFor(() => api.panel()?.renderedRevision === 0, 'the webview to paint the empty state');
      const review = await mcp.call('get-review');
      assert.equal(review.markdown, '');
      assert.equal(review.revision, 0, 'get-review reports "nothing presented"');
    });
  });
});
