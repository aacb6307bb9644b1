// MCP resources and prompts in a real extension host: the packaged server's subscribers hear of
// the user's real selection and of another client's review; prompts complete from the workspace's
// real git refs and files.
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { connectPackagedMcp, redline, waitFor, workspaceRoot } = require('./helpers');

describe('MCP resources and prompts in a real extension host', () => {
  let watcher;
  let presenter;
  /** URIs the watcher heard were updated. */
  const updated = [];

  before(async () => {
    const { extension } = await redline();
    watcher = await connectPackagedMcp(extension);
    presenter = await connectPackagedMcp(extension);
    watcher.client.setNotificationHandler('notifications/resources/updated', (notification) =>
      updated.push(notification.params.uri),
    );
  });

  after(async () => {
    await watcher?.close();
    await presenter?.close();
    // The repository the completion test makes is its own: the suites after it see the plain fixture.
    fs.rmSync(path.join(workspaceRoot(), '.git'), { recursive: true, force: true });
  });

  it("a subscriber to redline://selection hears the user select, and reads the editor's selection", async () => {
    await watcher.client.subscribeResource({ uri: 'redline://selection' });
    const document = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), 'src', 'example.ts'));
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.One,
      preview: false,
    });
    updated.length = 0;
    editor.selection = new vscode.Selection(2, 0, 3, 5);
    await waitFor(() => updated.includes('redline://selection'), 'the selection update');

    const read = await watcher.client.readResource({ uri: 'redline://selection' });
    const { editor: info } = JSON.parse(read.contents[0].text);
    assert.equal(info.relativePath, 'src/example.ts');
    assert.deepEqual(info.selections[0].start, { line: 3, column: 1 });
    assert.equal(info.selections[0].text, document.getText(new vscode.Range(2, 0, 3, 5)));
    await watcher.client.unsubscribeResource({ uri: 'redline://selection' });
  });

  it('explain-selection carries the text the user selected', async () => {
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor is active');
    const selected = editor.document.getText(editor.selection);
    const prompt = await watcher.client.getPrompt({ name: 'explain-selection' });
    const body = prompt.messages[0].content.text;
    assert.ok(body.includes(`src/example.ts:3-4\n\`\`\`typescript\n${selected}\n\`\`\``), body);
  });

  it('a subscriber to redline://review/current hears another client present, and reads the review', async () => {
    await watcher.client.subscribeResource({ uri: 'redline://review/current' });
    updated.length = 0;
    const markdown = '# Resource review\n\n- nit: a name at src/example.ts:3\n';
    await presenter.call('present-review', { content: markdown, title: 'Resource review' });
    await waitFor(() => updated.includes('redline://review/current'), 'the review update');
    const read = await watcher.client.readResource({ uri: 'redline://review/current' });
    assert.equal(read.contents[0].text, markdown);
    assert.equal(read.contents[0].mimeType, 'text/markdown');
  });

  it('a client pinned to 2026-07-28 hears on its listen stream another client present, and reads the review', async () => {
    const { extension } = await redline();
    const modern = await connectPackagedMcp(extension, 'modern');
    try {
      assert.equal(modern.client.getProtocolEra(), 'modern');
      const heard = [];
      modern.client.setNotificationHandler('notifications/resources/updated', (notification) =>
        heard.push(notification.params.uri),
      );
      const subscription = await modern.client.listen({ resourceSubscriptions: ['redline://review/current'] });
      const markdown = '# Listened review\n\n- nit: a name at src/example.ts:4\n';
      await presenter.call('present-review', { content: markdown, title: 'Listened review' });
      await waitFor(() => heard.includes('redline://review/current'), 'the update on the listen stream').catch(
        (error) => {
          error.message += `\n--- MCP server stderr ---\n${modern.stderr()}`;
          throw error;
        },
      );
      const read = await modern.client.readResource({ uri: 'redline://review/current' });
      assert.equal(read.contents[0].text, markdown);
      await subscription.close();
    } finally {
      await modern.close();
    }
  });

  it("review-changes completes its base from the workspace's git refs, and review-file its file from the workspace", async () => {
    const git = (...args) =>
      execFileSync('git', args, {
        cwd: workspaceRoot(),
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    git('branch', 'feature/resources');
    git('tag', 'v0.1');
    const complete = async (name, argument, value) =>
      (await watcher.client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } }))
        .completion.values;

    assert.deepEqual(await complete('review-changes', 'base', ''), ['HEAD', 'feature/resources', 'main', 'v0.1']);
    assert.deepEqual(await complete('review-changes', 'base', 'fe'), ['feature/resources']);
    const files = await complete('review-file', 'file', 'src/exa');
    assert.equal(files[0], 'src/example.ts', JSON.stringify(files));

    const prompt = await watcher.client.getPrompt({
      name: 'review-changes',
      arguments: { base: 'main', paths: 'src' },
    });
    assert.ok(prompt.messages[0].content.text.includes("git diff 'main' -- 'src'"));
  });
});
