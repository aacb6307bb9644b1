// Findings in the code and the user's answers, in a real extension host: comment threads, the
// Problems view and its quick fixes, anchors that follow typing, and feedback reaching an MCP
// client that waits in await-review-feedback.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { connectPackagedMcp, redline, waitFor, workspaceRoot } = require('./helpers');

const EXAMPLE = 'src/example.ts';

describe('Findings and feedback', () => {
  /** @type {any} */
  let api;
  let mcp;
  let findings;
  const uri = () => vscode.Uri.file(path.join(workspaceRoot(), EXAMPLE));

  before(async () => {
    ({ api } = await redline());
    mcp = await connectPackagedMcp((await redline()).extension);
    const content = [
      '# Findings review',
      '',
      `- **bug**: the discount ignores unknown coupons at ${EXAMPLE}:42-43`,
      `- nit: \`subtotal\` could use reduce, ${EXAMPLE}:31`,
      '',
    ].join('\n');
    ({ findings } = await mcp.call('present-review', { content, title: 'Findings' }));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await mcp?.close();
  });

  it('present-review lists the findings, and each becomes a comment thread at its lines', async () => {
    assert.deepEqual(
      findings.map((f) => [f.severity, f.line, f.endLine, f.state, f.stale]),
      [
        ['bug', 42, 43, 'open', false],
        ['nit', 31, 31, 'open', false],
      ],
    );
    const threads = api.findings.threads;
    await waitFor(() => threads.count === 2 && threads.threadOf(findings[1].id), 'a comment thread per finding');
    const thread = threads.threadOf(findings[0].id);
    assert.equal(thread.uri.fsPath, uri().fsPath);
    assert.deepEqual([thread.range.start.line, thread.range.end.line], [41, 42]);
    assert.equal(thread.label, 'bug');
    assert.equal(
      thread.comments[0].author.name,
      'redline-e2e-suite',
      'the assistant named in clientInfo is the author',
    );
    assert.match(thread.comments[0].body.value, /discount ignores unknown coupons/);
  });

  it('shows open findings in the Problems view, with Reply, Resolve and "Ask the assistant to fix"', async () => {
    const diagnostics = await waitFor(
      () =>
        vscode.languages.getDiagnostics(uri()).filter((d) => d.source === 'Redline').length === 2 &&
        vscode.languages.getDiagnostics(uri()),
      'two Redline diagnostics',
    );
    const bug = diagnostics.find((d) => d.code === findings[0].id);
    assert.equal(bug.severity, vscode.DiagnosticSeverity.Error);
    assert.match(bug.message, /^bug: the discount ignores unknown coupons/);
    // Where a user puts the cursor to ask for quick fixes: the finding's first line, in the open file.
    await vscode.workspace.openTextDocument(uri());
    const at = new vscode.Range(bug.range.start, bug.range.start);
    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', uri(), at);
    const titles = actions.filter((a) => a.command?.arguments?.[0] === findings[0].id).map((a) => a.title);
    assert.deepEqual(titles, ['Reply to this finding…', 'Resolve this finding', 'Ask the assistant to fix this']);
  });

  it('a reply typed in a thread reaches an assistant waiting in await-review-feedback', async () => {
    const { cursor } = await mcp.call('get-review-feedback');
    const waiting = mcp.call('await-review-feedback', { since: cursor, timeoutSeconds: 60 });
    const thread = api.findings.threads.threadOf(findings[0].id);
    await vscode.commands.executeCommand('redline.finding.reply', {
      thread,
      text: 'Unknown coupons should be an error.',
    });
    const result = await waiting;
    assert.equal(result.timedOut, false);
    assert.deepEqual(
      result.items.map((i) => [i.kind, i.findingId, i.text, i.reference]),
      [['reply', findings[0].id, 'Unknown coupons should be an error.', `${EXAMPLE}:42-43`]],
    );
    await waitFor(() => api.findings.threads.threadOf(findings[0].id).comments.length === 2, 'the reply in the thread');
  });

  it('a state set from the thread reaches get-review-feedback and leaves the Problems view', async () => {
    const { cursor } = await mcp.call('get-review-feedback');
    await vscode.commands.executeCommand('redline.finding.wontFix', api.findings.threads.threadOf(findings[1].id));
    const { items } = await mcp.call('get-review-feedback', { since: cursor });
    assert.deepEqual(
      items.map((i) => [i.kind, i.findingId, i.state]),
      [['state', findings[1].id, 'wont-fix']],
    );
    await waitFor(
      () => vscode.languages.getDiagnostics(uri()).filter((d) => d.source === 'Redline').length === 1,
      "the won't-fix finding to leave Problems",
    );
    const thread = await waitFor(() => {
      const t = api.findings.threads.threadOf(findings[1].id);
      return t.state === vscode.CommentThreadState.Resolved && t;
    }, 'the thread to show it closed');
    assert.equal(thread.contextValue, 'redline-closed');
    const review = await mcp.call('get-review');
    assert.deepEqual(
      review.findings.map((f) => f.state),
      ['open', 'wont-fix'],
    );
  });

  it('"Ask the assistant to fix" records a message tied to the finding', async () => {
    const { cursor } = await mcp.call('get-review-feedback');
    await vscode.commands.executeCommand('redline.finding.askToFix', findings[0].id);
    const { items } = await mcp.call('get-review-feedback', { since: cursor });
    assert.deepEqual(
      items.map((i) => [i.kind, i.findingId, i.text]),
      [['message', findings[0].id, 'Please fix this finding.']],
    );
  });

  it('three lines typed above a finding at line 42: get-review reports line 45, and so does the thread', async () => {
    const editor = await vscode.window.showTextDocument(uri(), { preview: false });
    await editor.edit((edit) => edit.insert(new vscode.Position(10, 0), '// one\n// two\n// three\n'));
    await waitFor(
      () => editor.document.lineAt(12).text === '// three',
      "the edit in the extension host's copy of the document",
    );
    assert.equal(editor.document.isDirty, true, 'unsaved');
    const review = await mcp.call('get-review');
    assert.deepEqual(
      review.findings.map((f) => [f.line, f.endLine, f.stale]),
      [
        [45, 46, false],
        [34, 34, false],
      ],
    );
    await waitFor(
      () => api.findings.threads.threadOf(findings[0].id).range.start.line === 44,
      'the thread to move to line 45',
    );
    // Typing inside the finding's lines changes its code: found nowhere, it is stale.
    await editor.edit((edit) => edit.replace(new vscode.Range(44, 0, 44, 500), 'export const gone = 1;'));
    await waitFor(() => editor.document.lineAt(44).text === 'export const gone = 1;', 'the second edit');
    const after = await mcp.call('get-review');
    assert.equal(after.findings[0].stale, true);
    // Revert acts on the active editor, and the review panel may have taken that place meanwhile.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    const saved = fs.readFileSync(uri().fsPath, 'utf8');
    await waitFor(
      () => editor.document.getText() === saved,
      "the reverted text in the extension host's copy of the document",
    );
    const reverted = await mcp.call('get-review');
    assert.deepEqual(
      reverted.findings.map((f) => [f.line, f.stale]),
      [
        [42, false],
        [31, false],
      ],
    );
  });
});
