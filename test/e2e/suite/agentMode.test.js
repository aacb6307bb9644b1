// VS Code's own agent mode: Redline registers its MCP server with VS Code (the
// mcpServerDefinitionProviders contribution), with this window's socket and token. VS Code starts
// the server from that registration, and its tools become language-model tools that agent mode
// (or any extension) calls. This starts it the way "MCP: List Servers" → Start Server does and
// calls present-review through VS Code, as the agent would.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { redline, waitFor } = require('./helpers');

const REVIEW = "# From VS Code's agent\n\nThe loop in src/example.ts:2 never ends.";

/** Redline's tools as VS Code offers them to models: the MCP server's tools, by their names in VS Code. */
const redlineTools = () =>
  vscode.lm.tools.filter((tool) => /redline/i.test(tool.name) || tool.tags.some((tag) => /redline/i.test(tag)));

describe("VS Code's agent mode", () => {
  /** @type {import('../../../extension/src/extension').RedlineTestApi} */
  let api;

  before(async () => {
    ({ api } = await redline());
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('chat')
      .update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
  });

  it("starts Redline's server from its registration and offers its nine tools to models", async function () {
    // code-server starts with VS Code's AI features off, and with them its MCP servers.
    await vscode.workspace
      .getConfiguration('chat')
      .update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    // As "MCP: List Servers" → Start Server does; again until VS Code has taken the setting in.
    const tools = await waitFor(
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', {
          waitForLiveTools: true,
          autoTrustChanges: true,
        });
        return redlineTools().length >= 9 ? redlineTools() : undefined;
      },
      "Redline's tools in vscode.lm.tools",
      45_000,
    );
    const present = tools.find((tool) => /present.review/.test(tool.name));
    assert.equal(tools.length, 9, tools.map((tool) => tool.name).join(', '));
    assert.ok(present, `present-review among ${tools.map((tool) => tool.name).join(', ')}`);
    assert.match(present.description, /^Present a code review/);
  });

  it('a present-review that VS Code calls reaches this window, and VS Code gets its result', async function () {
    const present = redlineTools().find((tool) => /present.review/.test(tool.name));
    assert.ok(present, 'the tool is registered');
    const result = await vscode.lm.invokeTool(present.name, {
      input: { content: REVIEW },
      toolInvocationToken: undefined,
    });
    const text = result.content
      .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
      .join('');
    assert.match(text, /revision/i);
    const shown = await waitFor(
      () => api.reviews.all.find((review) => review.store.current?.markdown === REVIEW),
      "the review in one of the window's stores",
    );
    assert.equal(shown.store.current?.markdown, REVIEW);
  });
});
