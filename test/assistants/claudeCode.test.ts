// Claude Code, the real CLI at its pinned version, set up as Connect an Assistant sets it up
// (`claude mcp add --scope user` with the ~/.redline launcher) and run in a VS Code terminal's
// environment against a fake Anthropic API. Claude Code defers MCP tools behind its tool search,
// so the model finds present-review by searching, as a real model would, before it calls it.

import { claudeAddArgs } from '../../extension/src/assistants/claudeCode';
import { NODE_ON_PATH, REFUSAL_CODE, REFUSAL_REASON, REFUSED_REVIEW, Stage } from './assistantKit';

const REVIEW = '# Review of example.ts\n\n- src/example.ts:3 declares a constant nobody reads.';

/** Claude Code's environment in a VS Code terminal, against the stage's fake model. */
function claudeEnv(stage: Stage): Record<string, string> {
  return stage.env({
    ANTHROPIC_BASE_URL: stage.model.url,
    ANTHROPIC_API_KEY: 'sk-ant-fake',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // What Redline puts into a VS Code terminal.
    REDLINE_IPC_PATH: stage.host.socketPath,
    REDLINE_IPC_TOKEN: stage.host.token,
  });
}

describe('Claude Code, set up by Connect an Assistant', () => {
  let stage: Stage;
  let env: Record<string, string>;

  beforeAll(async () => {
    stage = await Stage.start({
      steps: [
        { tool: /^ToolSearch$/, args: { query: 'present code review', max_results: 3 } },
        { tool: /^mcp__redline__present-review$/, args: { content: REVIEW } },
      ],
    });
    env = claudeEnv(stage);
  }, 30 * 60_000);

  afterAll(() => stage?.stop());

  it('accepts the command Connect an Assistant runs, and reports the server connected', async () => {
    const add = await stage.run('claude', claudeAddArgs(stage.launcher, NODE_ON_PATH), env);
    expect({ code: add.code, stdout: add.stdout }).toEqual({
      code: 0,
      stdout: expect.stringContaining('Added stdio MCP server redline with command: node'),
    });

    const get = await stage.run('claude', ['mcp', 'get', 'redline'], env);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/Scope: User config/);
    expect(get.stdout).toContain(stage.launcher);

    const list = await stage.run('claude', ['mcp', 'list'], env);
    expect(list.stdout).toContain(`redline: node ${stage.launcher} - ✔ Connected`);
  });

  it('finds present-review by searching for "present code review", and the review reaches the window and its result the model', async () => {
    const run = await stage.run(
      'claude',
      [
        '-p',
        'Review src/example.ts and present the review.',
        '--output-format',
        'json',
        '--allowedTools',
        'mcp__redline__present-review',
      ],
      env,
    );
    expect({ code: run.code, result: JSON.parse(run.stdout || '{}').result }).toEqual({
      code: 0,
      result: 'The review is in the editor.',
    });

    const [search, present] = stage.model.calls;
    // The tool search's best match is present-review: its name and description say what it is for.
    expect(search?.result?.text.split('\n')[0]).toBe(
      '{"type":"tool_reference","tool_name":"mcp__redline__present-review"}',
    );
    expect(present?.name).toBe('mcp__redline__present-review');
    expect(stage.presented()).toEqual([REVIEW]);
    const result = JSON.parse(present.result?.text ?? '{}');
    expect(result).toMatchObject({
      revision: 1,
      references: { total: 1, resolved: 1 },
      window: 'the window named by REDLINE_IPC_PATH',
    });
    expect(result.findings).toEqual([expect.objectContaining({ reference: 'src/example.ts:3', line: 3 })]);
  });
});

describe('Claude Code, presenting a review the budget refuses', () => {
  let stage: Stage;
  let env: Record<string, string>;

  beforeAll(async () => {
    stage = await Stage.start({
      steps: [
        { tool: /^ToolSearch$/, args: { query: 'present code review', max_results: 3 } },
        { tool: /^mcp__redline__present-review$/, args: { content: REFUSED_REVIEW } },
      ],
      finalText: 'The review was refused.',
    });
    env = claudeEnv(stage);
    const add = await stage.run('claude', claudeAddArgs(stage.launcher, NODE_ON_PATH), env);
    if (add.code !== 0) throw new Error(`claude mcp add failed: ${stage.explain(add)}`);
  }, 30 * 60_000);

  afterAll(() => stage?.stop());

  it('hands the model the reason the window gave, with its code', async () => {
    const run = await stage.run(
      'claude',
      [
        '-p',
        'Review src/example.ts and present the review.',
        '--output-format',
        'json',
        '--allowedTools',
        'mcp__redline__present-review',
      ],
      env,
    );
    expect({ code: run.code, result: JSON.parse(run.stdout || '{}').result }).toEqual({
      code: 0,
      result: 'The review was refused.',
    });

    const present = stage.model.calls[1];
    expect(present?.name).toBe('mcp__redline__present-review');
    expect(present.result?.text).toContain(REFUSAL_REASON);
    expect(present.result?.text).toContain(REFUSAL_CODE);
    expect(stage.presented()).toEqual([]);
  });
});
