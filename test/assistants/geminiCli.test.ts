// Gemini CLI, the real CLI at its pinned version, with Redline's entry written into
// ~/.gemini/settings.json as Connect an Assistant writes it, run in a VS Code terminal's
// environment against a fake Gemini API. Three things only the real CLI shows: it cannot read a
// settings.json with a trailing comma; it starts no MCP server in a folder the user has not
// trusted; and it keeps REDLINE_IPC_TOKEN from the server (its secret redaction), which then
// finds the window through its discovery file.

import * as fs from 'fs';
import * as path from 'path';
import { planConfigChange } from '../../extension/src/assistants/configFiles/configFile';
import { configTarget, serverEntry } from '../../extension/src/assistants/configFiles/configTargets';
import { NODE_ON_PATH, REFUSAL_CODE, REFUSAL_REASON, REFUSED_REVIEW, Stage } from './assistantKit';

const REVIEW = '# Review of example.ts\n\n- src/example.ts:7 could be a loop.';
/** The user's own settings: an API key as the way to sign in, and a comment. */
const USER_SETTINGS =
  '{\n  // signed in with GEMINI_API_KEY\n  "security": { "auth": { "selectedType": "gemini-api-key" } }\n}\n';

/** Gemini CLI's environment in a VS Code terminal, against the stage's fake model. */
function geminiEnv(stage: Stage): Record<string, string> {
  return stage.env({
    GEMINI_API_KEY: 'fake-gemini-key',
    GOOGLE_GEMINI_BASE_URL: stage.model.url,
    // What Redline puts into a VS Code terminal.
    REDLINE_IPC_PATH: stage.host.socketPath,
    REDLINE_IPC_TOKEN: stage.host.token,
  });
}

/** A model named outright: the default "auto" first asks a router model for JSON, which a fake one does not give. */
const GEMINI_RUN = [
  '-p',
  'Review src/example.ts and present the review.',
  '--model',
  'gemini-2.5-pro',
  '--approval-mode',
  'yolo',
  '--output-format',
  'json',
];

describe('Gemini CLI, set up by Connect an Assistant', () => {
  let stage: Stage;
  let env: Record<string, string>;
  let settings: string;

  beforeAll(async () => {
    stage = await Stage.start({ steps: [{ tool: /^mcp_redline_present-review$/, args: { content: REVIEW } }] });
    settings = configTarget('gemini', { home: stage.home })!.file;
    env = geminiEnv(stage);
  }, 30 * 60_000);

  afterAll(() => stage?.stop());

  it('cannot read a settings.json with a trailing comma, and Connect an Assistant will not add its entry to one', async () => {
    const withComma = '{\n  "security": { "auth": { "selectedType": "gemini-api-key" }, },\n  "mcpServers": {}\n}\n';
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, withComma);
    const list = await stage.run('gemini', ['mcp', 'list'], env);
    expect(list.stdout + list.stderr).toMatch(/Expected double-quoted property name/);

    const plan = await planConfigChange(configTarget('gemini', { home: stage.home })!, {
      kind: 'set',
      entry: serverEntry('gemini', stage.launcher, NODE_ON_PATH),
    });
    expect(plan).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining(
        'has a trailing comma (before line 2, column 63), which Gemini CLI cannot read: remove it',
      ),
    });
  });

  it('accepts the entry Connect an Assistant writes: disabled in an untrusted folder, connected once the user trusts it', async () => {
    await stage.connect('gemini', USER_SETTINGS);
    const untrusted = await stage.run('gemini', ['mcp', 'list'], env);
    expect(untrusted.stderr).toContain('MCP servers are configured but disabled because this folder is untrusted');
    expect(untrusted.stderr).toContain(`redline: node ${stage.launcher} (stdio) - Disabled`);

    // What "Trust folder" in Gemini's dialog records.
    fs.writeFileSync(
      path.join(stage.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [stage.host.workspace]: 'TRUST_FOLDER' }),
    );
    const trusted = await stage.run('gemini', ['mcp', 'list'], env);
    expect(trusted.stderr).toContain(`✓ redline: node ${stage.launcher} (stdio) - Connected`);
  });

  it('calls present-review: the review reaches the window through discovery, without the token Gemini keeps back, and its result the model', async () => {
    const run = await stage.run('gemini', GEMINI_RUN, env);
    expect({ code: run.code, response: JSON.parse(run.stdout || '{}').response }).toEqual({
      code: 0,
      response: 'The review is in the editor.',
    });

    expect(stage.presented()).toEqual([REVIEW]);
    const [present] = stage.model.calls;
    expect(present.result?.text).toContain('Shown in VS Code as revision 1 with 1 section(s).');
    expect(present.result?.text).toContain('References: 1 of 1 resolved.');

    // Gemini passed the socket but not the token: the server went by its discovery file.
    expect(run.serverEnv).toMatchObject({ REDLINE_IPC_PATH: stage.host.socketPath });
    expect(run.serverEnv).not.toHaveProperty('REDLINE_IPC_TOKEN');
  });
});

describe('Gemini CLI, presenting a review the budget refuses', () => {
  let stage: Stage;
  let env: Record<string, string>;

  beforeAll(async () => {
    stage = await Stage.start({
      steps: [{ tool: /^mcp_redline_present-review$/, args: { content: REFUSED_REVIEW } }],
      finalText: 'The review was refused.',
    });
    env = geminiEnv(stage);
    await stage.connect('gemini', USER_SETTINGS);
    fs.writeFileSync(
      path.join(stage.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [stage.host.workspace]: 'TRUST_FOLDER' }),
    );
  }, 30 * 60_000);

  afterAll(() => stage?.stop());

  // Gemini CLI bundles the TypeScript SDK 1.x client, which checks structured content against the output schema.
  it('hands the model the reason the window gave, with its code, and no schema complaint', async () => {
    const run = await stage.run('gemini', GEMINI_RUN, env);
    expect({ code: run.code, response: JSON.parse(run.stdout || '{}').response }).toEqual({
      code: 0,
      response: 'The review was refused.',
    });

    const [present] = stage.model.calls;
    expect(present?.name).toBe('mcp_redline_present-review');
    // The text travels JSON-escaped inside the function response.
    const handed = present.result!.text;
    expect(handed).toContain(JSON.stringify(REFUSAL_REASON).slice(1, -1));
    expect(handed).toContain(REFUSAL_CODE);
    expect(handed).not.toMatch(/must have required property/);
    expect(stage.presented()).toEqual([]);
  });
});
