// A review the tool's schema accepts never costs the connection: six million control characters
// (6 MB, but 36 MB once JSON escapes them) are either shown or refused for their size, and a call
// made beside them on the same MCP server is answered.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { connectPackagedMcp, redline } = require('./helpers');

const CONTROL_CHARACTERS = 6_000_000;

describe('A review of 6,000,000 control characters', () => {
  /** @type {any} */
  let api;
  /** @type {Awaited<ReturnType<typeof connectPackagedMcp>>} */
  let mcp;

  before(async () => {
    const { extension, api: testApi } = await redline();
    api = testApi;
    mcp = await connectPackagedMcp(extension);
  });

  after(async () => {
    await mcp?.close();
    // Later tests should not repaint six million characters.
    await vscode.commands.executeCommand('redline.clearReview');
  });

  it('is delivered or refused for its size, and the call beside it succeeds', async () => {
    const before = api.store.revision;
    const content = '\u0001'.repeat(CONTROL_CHARACTERS);
    const started = Date.now();
    const [big, neighbour] = await Promise.all([
      mcp.raw('present-review', { content, title: 'Control characters' }),
      mcp.raw('get-selection'),
    ]);

    assert.notEqual(neighbour.isError, true, `the neighbouring get-selection failed: ${neighbour.content?.[0]?.text}`);
    assert.ok('editor' in (neighbour.structuredContent ?? {}), 'get-selection answered with its result');

    const text = big.content?.[0]?.text ?? '';
    // Which of the two allowed outcomes, and how long it took: a figure for the run's output.
    const outcome = big.isError
      ? `refused: ${text.slice(0, 200)}`
      : `delivered as revision ${big.structuredContent?.revision}`;
    console.log(`      6,000,000 control characters: ${outcome} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    if (big.isError) {
      // Refused: the assistant is told why in terms it can act on, and nothing changed.
      assert.match(text, /\b(size|large|bytes|MiB|MB|limit)\b/i, `the refusal says it is about size: ${text}`);
      assert.doesNotMatch(
        text,
        /reload|restart|not running/i,
        `a size refusal is not reported as a lost window: ${text}`,
      );
      assert.equal(api.store.revision, before, 'a refused review changes nothing');
    } else {
      assert.equal(big.structuredContent.revision, api.store.revision, 'the reply names the stored revision');
      assert.equal(api.store.current.markdown.length, CONTROL_CHARACTERS, 'the whole review was stored');
    }
  });

  it('leaves the connection working for the next call', async () => {
    const { editor } = await mcp.call('get-selection');
    assert.ok(editor === null || typeof editor.lineCount === 'number', 'get-selection answered');
  });
});
