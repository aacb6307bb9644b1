// The assistant's view of the disk stays the assistant's: open-location of a file outside the
// workspace asks the user first, and get-selection keeps that file's text from the assistant
// until the user selects in it themselves.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RedlineSession, session, waitFor } from './session.mjs';

const FILE_NAME = 'private-notes.txt';

describe('open-location of a file outside the workspace', () => {
  /** @type {string} */
  let outsideFile;
  /** @type {string} a line of the file that must reach the assistant only through the user */
  let secret;

  before(() => {
    const s = session();
    // Beside the workspace, not in it: neither a workspace folder nor the MCP server's cwd holds it.
    const directory = join(/** @type {string} */ (s.tempDir), 'outside');
    mkdirSync(directory, { recursive: true });
    outsideFile = join(directory, FILE_NAME);
    secret = RedlineSession.marker('SECRET');
    writeFileSync(
      outsideFile,
      ['first line', 'second line', `the third line holds ${secret}`, 'fourth line', ''].join('\n'),
    );
  });

  /** The modal that asks, once the tool call has reached the window. */
  const askDialog = () => session().page.locator('.monaco-dialog-box');

  it('asks first; when the user cancels, nothing opens and the assistant gets an error', async () => {
    const s = session();
    const tabs = await s.editorTabs();
    const call = s.rawCall('open-location', { reference: `${outsideFile}:3` });
    const dialog = askDialog();
    await dialog.waitFor({ state: 'visible' });
    const question = await dialog.innerText();
    assert.ok(question.includes(FILE_NAME), `the question names the file: ${question}`);
    await s.screenshot('10a-outside-asked');
    await dialog.locator('.monaco-button', { hasText: /^\s*Cancel\s*$/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    const result = await call;
    assert.equal(
      result.isError,
      true,
      `open-location succeeded without the user's yes: ${JSON.stringify(result.content)}`,
    );
    assert.ok(/** @type {any} */ (result.content)[0].text.includes(FILE_NAME), 'the error names the file');
    assert.deepEqual(await s.editorTabs(), tabs, 'no editor opened');
  });

  it('opens it when the user answers Open, but get-selection withholds its text', async () => {
    const s = session();
    const call = s.rawCall('open-location', { reference: `${outsideFile}:3` });
    const dialog = askDialog();
    await dialog.waitFor({ state: 'visible' });
    await dialog.locator('.monaco-button', { hasText: /^\s*Open\s*$/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    const result = await call;
    assert.notEqual(
      result.isError,
      true,
      `open-location failed after the user's yes: ${JSON.stringify(result.content)}`,
    );
    assert.deepEqual(/** @type {any} */ (result.structuredContent).start, { line: 3, column: 1 });
    await s.page
      .locator('.editor-group-container.active .tab.active', { hasText: FILE_NAME })
      .waitFor({ state: 'visible' });
    await s.waitForCursor(3);
    await s.screenshot('10b-outside-opened');

    // The tool selected line 3; the user has not selected anything in the file.
    const selection = await s.rawCall('get-selection');
    assert.notEqual(selection.isError, true, JSON.stringify(selection.content));
    const editor = /** @type {any} */ (selection.structuredContent).editor;
    assert.ok(editor?.path?.endsWith(FILE_NAME), `get-selection describes the opened file: ${JSON.stringify(editor)}`);
    assert.ok(
      !JSON.stringify(selection).includes(secret),
      `the file's text reached the assistant: ${JSON.stringify(selection)}`,
    );
  });

  it('returns its text once the user selects in it', async () => {
    const s = session();
    // The user clicks into line 3 and selects to its end.
    await s.page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: secret }).click();
    await s.page.keyboard.press('Home');
    await s.page.keyboard.press('Shift+End');
    const line = `the third line holds ${secret}`;
    await s.waitForCursor(3, { column: line.length + 1, selected: line.length });
    // The selection reaches the extension host a moment after the keypress.
    const editor = await waitFor(async () => {
      const found = (await s.call('get-selection')).editor;
      return found?.selections?.[0]?.text === line && found;
    }, `get-selection to return the line the user selected (${line})`);
    assert.ok(editor.path.endsWith(FILE_NAME));
    await s.screenshot('10c-outside-selected');
    // Back to the workspace file, so that the later tests find the editors as they expect.
    await s.page.locator('.tabs-container .tab', { hasText: 'example.ts' }).first().click();
  });
});
