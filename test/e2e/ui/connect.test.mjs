// "Redline: Connect an Assistant…" as the user sees it: a snippet that holds this window's token
// is shown and copied only after the user has read what the token allows; one without a secret is
// copied at once. For Cursor it writes ~/.cursor/mcp.json itself, after showing the change in a
// diff editor, and "Redline: Remove Redline from…" takes the entry out again; the file it wrote
// starts a server that finds this window with no variable at all. Show Connection Info's Copy
// Environment asks the same consent before it copies the token.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { readTerminalEnv, runCommand, runCommandAndPick } from '../harness/workbench.mjs';
import { session, waitFor } from './session.mjs';

const { parse: parseJsonc } = createRequire(import.meta.url)('jsonc-parser');

/** Runs the command and picks `label` in its quick pick. @param {string} label */
async function connect(label) {
  const s = session();
  await runCommandAndPick(s.page, 'Redline: Connect an Assistant…', {
    has: s.page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }),
  });
}

const clipboard = () => session().page.evaluate(() => navigator.clipboard.readText());
const BEFORE = 'what the user had copied before';

describe('Connect an Assistant', () => {
  const consent = () => session().page.locator('.monaco-dialog-box', { hasText: 'holds the token' });
  const snippet = (title = 'Other assistants') => session().page.locator('.monaco-dialog-box', { hasText: title });

  it('asks before it shows or copies a snippet that holds the token; Cancel copies nothing', async () => {
    const s = session();
    await s.page.evaluate((text) => navigator.clipboard.writeText(text), BEFORE);
    await connect('Other');
    await consent().waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(
      await consent().innerText(),
      /read your selection in this window, open files in it and show reviews in it/,
    );
    await s.screenshot('22-connect-token-consent');
    await consent()
      .locator('.monaco-button', { hasText: /^\s*Cancel\s*$/ })
      .click();
    await consent().waitFor({ state: 'hidden' });
    assert.equal(await snippet().count(), 0, 'no snippet is shown');
    assert.equal(await clipboard(), BEFORE);
  });

  it('"Show and Copy" copies the snippet with this window\'s token and shows it', async () => {
    const s = session();
    await connect('Other');
    await consent().locator('.monaco-button', { hasText: 'Show and Copy' }).click();
    await snippet().waitFor({ state: 'visible', timeout: 15_000 });
    const copied = await clipboard();
    await s.page.keyboard.press('Escape');
    await snippet().waitFor({ state: 'hidden' });
    // The token of the window's host now: a reload earlier in the suite made a new one.
    assert.ok(copied.includes(`REDLINE_IPC_TOKEN=${s.windowOf()?.token}`), 'the token is in the copied snippet');
  });

  it('a snippet without a secret is copied at once', async () => {
    const s = session();
    await s.page.evaluate((text) => navigator.clipboard.writeText(text), BEFORE);
    await connect('Claude Code');
    const shown = snippet('Claude Code: run this once in a terminal');
    await shown.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await consent().count(), 0, 'nothing to agree to');
    const copied = await clipboard();
    await s.page.keyboard.press('Escape');
    await shown.waitFor({ state: 'hidden' });
    assert.match(copied, /^claude mcp add --scope user redline /);
    assert.ok(!copied.includes(/** @type {string} */ (s.windowOf()?.token)), 'no token in it');
  });
});

describe('Show Connection Info', () => {
  const info = () => session().page.locator('.monaco-dialog-box', { hasText: 'Redline connection' });
  const consent = () => session().page.locator('.monaco-dialog-box', { hasText: 'The environment holds the token' });
  const copyEnvironment = async () => {
    await runCommand(session().page, 'Redline: Show Connection Info');
    await info().locator('.monaco-button', { hasText: 'Copy Environment' }).click();
    await consent().waitFor({ state: 'visible', timeout: 15_000 });
  };

  it('"Copy Environment" asks the same consent as Connect an Assistant; Cancel copies nothing', async () => {
    const s = session();
    await s.page.evaluate((text) => navigator.clipboard.writeText(text), BEFORE);
    await copyEnvironment();
    assert.match(
      await consent().innerText(),
      /read your selection in this window, open files in it and show reviews in it/,
    );
    await consent()
      .locator('.monaco-button', { hasText: /^\s*Cancel\s*$/ })
      .click();
    await consent().waitFor({ state: 'hidden' });
    assert.equal(await clipboard(), BEFORE);
  });

  it('"Copy" then copies this window\'s socket and token', async () => {
    const s = session();
    await s.page.evaluate((text) => navigator.clipboard.writeText(text), BEFORE);
    await copyEnvironment();
    await consent()
      .locator('.monaco-button', { hasText: /^\s*Copy\s*$/ })
      .click();
    await consent().waitFor({ state: 'hidden' });
    // The extension host writes the clipboard after the dialog has closed.
    const copied = await waitFor(
      async () => ((await clipboard()) !== BEFORE ? clipboard() : undefined),
      'the clipboard to change',
    );
    assert.ok(copied.includes(`REDLINE_IPC_TOKEN=${s.windowOf()?.token}`), `the token is in ${copied}`);
    assert.match(copied, /^export REDLINE_IPC_PATH=/);
  });
});

describe("Connect an Assistant writes Cursor's config", () => {
  const ORIGINAL =
    '{\n  // my servers\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["-y", "server-github"] } // work\n  }\n}\n';
  /** @type {Record<string, string | undefined>} the window's HOME, TMPDIR, XDG_RUNTIME_DIR and REDLINE_RUNTIME_DIR, as its terminals have them */
  let windowEnv = {};
  const home = () => /** @type {string} */ (windowEnv.HOME);
  const cursorFile = () => join(home(), '.cursor', 'mcp.json');
  const backups = () =>
    readdirSync(dirname(cursorFile())).filter((name) => name.startsWith('mcp.json.redline-backup-'));
  const dialog = (title) => session().page.locator('.monaco-dialog-box', { hasText: title });
  const button = (box, label) => box.locator('.monaco-button', { hasText: new RegExp(`^\\s*${label}\\s*$`) });
  const toast = (text) => session().page.locator('.notifications-toasts .notification-toast', { hasText: text });

  before(async function () {
    this.timeout(60_000);
    const s = session();
    windowEnv = await readTerminalEnv(s.page, ['HOME', 'TMPDIR', 'XDG_RUNTIME_DIR', 'REDLINE_RUNTIME_DIR']);
    await runCommand(s.page, 'View: Toggle Panel Visibility');
    // These tests write in the window's home folder: never in the home of whoever runs them.
    assert.ok(
      home() && resolve(home()) !== resolve(homedir()),
      `code-server needs a HOME of its own (test/e2e/harness/codeServer.mjs serverEnv); it has ${home()}`,
    );
    mkdirSync(dirname(cursorFile()), { recursive: true });
    writeFileSync(cursorFile(), ORIGINAL);
  });

  it('shows the change to ~/.cursor/mcp.json in a diff editor; Cancel writes nothing', async () => {
    const s = session();
    await connect('Cursor');
    const offer = dialog('Add Redline to ~/.cursor/mcp.json?');
    await offer.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await offer.innerText(), /No socket or token goes into the file/);
    const diff = s.page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await diff.innerText(), /"redline":/);
    assert.ok(
      (await s.page.locator('.tabs-container .tab', { hasText: 'now ↔ with Redline' }).count()) > 0,
      'the diff editor is titled',
    );
    await s.screenshot('23-connect-cursor-diff');
    await button(offer, 'Cancel').click();
    await offer.waitFor({ state: 'hidden' });
    await s.page
      .locator('.tabs-container .tab', { hasText: 'now ↔ with Redline' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(readFileSync(cursorFile(), 'utf8'), ORIGINAL);
    assert.deepEqual(backups(), []);
  });

  it('"Write" merges Redline\'s entry, keeps the user\'s entries and comments, and keeps a backup', async () => {
    const s = session();
    await connect('Cursor');
    const offer = dialog('Add Redline to ~/.cursor/mcp.json?');
    await offer.waitFor({ state: 'visible', timeout: 15_000 });
    await button(offer, 'Write').click();
    await toast('added Redline to ~/.cursor/mcp.json').waitFor({ state: 'visible', timeout: 15_000 });
    await s.screenshot('24-connect-cursor-written');

    const text = readFileSync(cursorFile(), 'utf8');
    assert.ok(text.includes('// my servers') && text.includes('// work'), `the comments are kept:\n${text}`);
    const { mcpServers } = parseJsonc(text);
    assert.deepEqual(mcpServers.github, { command: 'npx', args: ['-y', 'server-github'] });
    assert.deepEqual(
      mcpServers.redline.args,
      [join(home(), '.redline', 'mcp-server.js')],
      'the stable launcher, not a versioned path',
    );
    assert.ok(!/REDLINE_IPC|token/i.test(text), 'no socket or token in the file');
    assert.equal(backups().length, 1);
    assert.equal(readFileSync(join(dirname(cursorFile()), backups()[0]), 'utf8'), ORIGINAL);
  });

  it('the written entry starts a server that finds this window by its folder, with no socket or token', async () => {
    const s = session();
    const { redline } = parseJsonc(readFileSync(cursorFile(), 'utf8')).mcpServers;
    assert.ok(existsSync(redline.args[0]), 'the launcher exists');
    // As Cursor would start it in this project: the entry's command and args, none of Redline's variables.
    const env = Object.fromEntries(
      Object.entries({ PATH: process.env.PATH, ...windowEnv, ...redline.env }).filter(
        ([, value]) => value !== undefined,
      ),
    );
    const transport = new StdioClientTransport({
      command: redline.command === 'node' ? process.execPath : redline.command,
      args: redline.args,
      cwd: s.workspace,
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'redline-e2e-cursor', version: '0.0.0' });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: 'get-review', arguments: {} }, { timeout: 30_000 });
      assert.ok(!result.isError, `get-review through discovery failed: ${JSON.stringify(result.content)}\n${stderr}`);
    } finally {
      await client.close().catch(() => {});
    }
  });

  it('"Remove Redline from…" takes the entry out again and leaves everything else', async () => {
    const s = session();
    await runCommandAndPick(s.page, 'Redline: Remove Redline from…', {
      has: s.page.locator('.label-name', { hasText: /^\s*Cursor\s*$/ }),
    });
    const confirm = dialog('Remove Redline from ~/.cursor/mcp.json?');
    await confirm.waitFor({ state: 'visible', timeout: 15_000 });
    await button(confirm, 'Remove').click();
    await toast('removed Redline from ~/.cursor/mcp.json').waitFor({ state: 'visible', timeout: 15_000 });
    const text = readFileSync(cursorFile(), 'utf8');
    assert.deepEqual(parseJsonc(text), parseJsonc(ORIGINAL));
    assert.ok(text.includes('// my servers') && text.includes('// work'), `the comments are kept:\n${text}`);
    assert.equal(backups().length, 2);
  });
});
