// "Redline: Connect an Assistant…" as the user sees it: a snippet that holds this window's token
// is shown and copied only after the user has read what the token allows; one without a secret is
// copied at once.
import assert from 'node:assert/strict';
import { runCommandAndPick } from '../harness/workbench.mjs';
import { session } from './session.mjs';

/** Runs the command and picks `label` in its quick pick. @param {string} label */
async function connect(label) {
  const s = session();
  await runCommandAndPick(s.page, 'Redline: Connect an Assistant…', { has: s.page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) });
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
    assert.match(await consent().innerText(), /read your selection in this window, open files in it and show reviews in it/);
    await s.screenshot('22-connect-token-consent');
    await consent().locator('.monaco-button', { hasText: /^\s*Cancel\s*$/ }).click();
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
    assert.ok(copied.includes(`REDLINE_IPC_TOKEN=${s.terminalEnv?.REDLINE_IPC_TOKEN}`), 'the token is in the copied snippet');
    await s.page.keyboard.press('Escape');
    await snippet().waitFor({ state: 'hidden' });
  });

  it('a snippet without a secret is copied at once', async () => {
    const s = session();
    await s.page.evaluate((text) => navigator.clipboard.writeText(text), BEFORE);
    await connect('Claude Code');
    const shown = snippet('Claude Code: run this once in a terminal');
    await shown.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await consent().count(), 0, 'nothing to agree to');
    const copied = await clipboard();
    assert.match(copied, /^claude mcp add --scope user redline /);
    assert.ok(!copied.includes(/** @type {string} */ (s.terminalEnv?.REDLINE_IPC_TOKEN)), 'no token in it');
    await s.page.keyboard.press('Escape');
    await shown.waitFor({ state: 'hidden' });
  });
});
