// Settings apply live: a change to redline.requestTimeoutMs reaches the next terminal an
// assistant is started in, with no window reload.
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { readTerminalEnv, redline } = require('./helpers');

const TIMEOUT_SETTING = 'redline.requestTimeoutMs';

/**
 * Changes a user setting and resolves once the extension host has seen the change. Redline's own
 * listener was registered at activation, before this one, so it has run by then; what it sends to
 * the workbench is ordered before the terminal this test creates next.
 * @param {unknown} value undefined removes the setting
 */
async function setTimeoutSetting(value) {
  /** @type {vscode.Disposable | undefined} */
  let listener;
  const seen = new Promise((resolve) => {
    listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(TIMEOUT_SETTING)) resolve(undefined);
    });
  });
  try {
    await vscode.workspace
      .getConfiguration('redline')
      .update('requestTimeoutMs', value, vscode.ConfigurationTarget.Global);
    await seen;
  } finally {
    listener?.dispose();
  }
}

describe('A change to redline.requestTimeoutMs', () => {
  before(async () => {
    await redline();
  });

  after(async () => {
    if (vscode.workspace.getConfiguration('redline').inspect('requestTimeoutMs')?.globalValue !== undefined) {
      await setTimeoutSetting(undefined);
    }
  });

  it('shows in a new terminal as REDLINE_TIMEOUT_MS, and its removal too, without a reload', async function () {
    const before = await readTerminalEnv(['REDLINE_TIMEOUT_MS']);
    assert.equal(before.REDLINE_TIMEOUT_MS, undefined, 'unset while the setting is at its default (0)');

    await setTimeoutSetting(45_000);
    const changed = await readTerminalEnv(['REDLINE_TIMEOUT_MS']);
    assert.equal(changed.REDLINE_TIMEOUT_MS, '45000');

    await setTimeoutSetting(undefined);
    const restored = await readTerminalEnv(['REDLINE_TIMEOUT_MS']);
    assert.equal(restored.REDLINE_TIMEOUT_MS, undefined, "back to the MCP server's own defaults");
  });
});
