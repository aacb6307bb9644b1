// Codex CLI, the real CLI at its pinned version, with Redline's entry written into
// ~/.codex/config.toml as Connect an Assistant writes it (CODEX_HOME here), run in a VS Code
// terminal's environment against a fake OpenAI Responses API. Codex starts MCP servers with a
// fixed set of variables; the entry's env_vars passes Redline's through, which this run shows by
// the terminal's window pin and the request-timeout setting reaching the server. Codex defers MCP
// tools behind its tool search (BM25 over names and descriptions), so the model searches first.

import * as path from 'path';
import { SERVER_ENV_NAMES } from '../../shared/environment';
import { NODE_ON_PATH, REFUSAL_CODE, REFUSAL_REASON, REFUSED_REVIEW, Stage } from './assistantKit';

const REVIEW = '# Review of example.ts\n\n- src/example.ts:12 repeats line 11.';
const TIMEOUT_SETTING = 'get-selection=1500';

/** The user's own config: a model provider (here the stage's fake one), to which Connect adds Redline's entry. */
function userConfig(stage: Stage): string {
  return [
    'model = "gpt-5.5"',
    'model_provider = "fake"',
    '',
    '[model_providers.fake]',
    'name = "Fake model"',
    `base_url = "${stage.model.url}/v1"`,
    'wire_api = "responses"',
    'env_key = "FAKE_MODEL_KEY"',
    '',
  ].join('\n');
}

const CODEX_RUN = [
  'exec',
  '--skip-git-repo-check',
  '--dangerously-bypass-approvals-and-sandbox',
  'Review src/example.ts and present the review.',
];

describe('Codex CLI, set up by Connect an Assistant', () => {
  let stage: Stage;
  let env: Record<string, string>;

  beforeAll(async () => {
    stage = await Stage.start({
      steps: [
        { tool: /^tool_search$/, args: { query: 'present code review', limit: 3 } },
        { tool: /^mcp__redline\/present_review$/, args: { content: REVIEW } },
        { tool: /^tool_search$/, args: { query: 'selected code in the editor', limit: 3 } },
        { tool: /^mcp__redline\/get_selection$/, args: {} },
      ],
    });
    // The editor never answers get-selection: the call ends by the timeout the server was given.
    stage.host.editor.hang = new Promise(() => undefined);
    const target = await stage.connect('codex', userConfig(stage));
    env = stage.env({
      CODEX_HOME: path.dirname(target.file),
      FAKE_MODEL_KEY: 'sk-fake',
      // What Redline puts into a VS Code terminal, with the window's request-timeout setting.
      REDLINE_IPC_PATH: stage.host.socketPath,
      REDLINE_IPC_TOKEN: stage.host.token,
      REDLINE_TIMEOUT_MS: TIMEOUT_SETTING,
    });
  }, 30 * 60_000);

  afterAll(() => stage?.stop());

  it("accepts the entry Connect an Assistant writes, with Redline's variables to pass through", async () => {
    const get = await stage.run('codex', ['mcp', 'get', 'redline', '--json'], env);
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({
      name: 'redline',
      enabled: true,
      transport: {
        type: 'stdio',
        command: NODE_ON_PATH.command,
        args: [stage.launcher],
        env_vars: [...SERVER_ENV_NAMES],
      },
    });
  });

  it('calls present-review after its tool search; the review reaches the window, and the timeout setting reaches the server', async () => {
    const run = await stage.run('codex', CODEX_RUN, env);
    expect({ code: run.code, said: run.stdout.trim() }).toEqual({ code: 0, said: 'The review is in the editor.' });

    const [search, present, , selection] = stage.model.calls;
    // BM25 over names and descriptions puts present-review first.
    expect(JSON.parse(search.result?.text ?? '[]')[0]?.tools?.[0]?.name).toBe('present_review');
    expect(stage.presented()).toEqual([REVIEW]);
    expect(present.result?.text).toContain('"revision":1');
    expect(present.result?.text).toContain('"window":"the window named by REDLINE_IPC_PATH"');

    expect(run.serverEnv).toMatchObject({
      REDLINE_IPC_PATH: stage.host.socketPath,
      REDLINE_IPC_TOKEN: stage.host.token,
      REDLINE_TIMEOUT_MS: TIMEOUT_SETTING,
    });
    expect(selection?.result?.text).toContain('VS Code did not answer get-selection within 1500 ms.');
  });
});

describe('Codex CLI, presenting a review the budget refuses', () => {
  let stage: Stage;
  let env: Record<string, string>;

  beforeAll(async () => {
    stage = await Stage.start({
      steps: [
        { tool: /^tool_search$/, args: { query: 'present code review', limit: 3 } },
        { tool: /^mcp__redline\/present_review$/, args: { content: REFUSED_REVIEW } },
      ],
      finalText: 'The review was refused.',
    });
    const target = await stage.connect('codex', userConfig(stage));
    env = stage.env({
      CODEX_HOME: path.dirname(target.file),
      FAKE_MODEL_KEY: 'sk-fake',
      REDLINE_IPC_PATH: stage.host.socketPath,
      REDLINE_IPC_TOKEN: stage.host.token,
    });
  }, 30 * 60_000);

  afterAll(() => stage?.stop());

  it('hands the model the reason the window gave, with its code', async () => {
    const run = await stage.run('codex', CODEX_RUN, env);
    expect({ code: run.code, said: run.stdout.trim() }).toEqual({ code: 0, said: 'The review was refused.' });

    const present = stage.model.calls[1];
    expect(present?.name).toBe('mcp__redline/present_review');
    expect(present.result?.text).toContain(REFUSAL_REASON);
    expect(present.result?.text).toContain(REFUSAL_CODE);
    expect(stage.presented()).toEqual([]);
  });
});
