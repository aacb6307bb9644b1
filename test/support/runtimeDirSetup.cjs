// jest's globalSetup: every window and MCP server a test run starts puts its socket and discovery
// file in a folder of the run's own, and looks nowhere else (REDLINE_RUNTIME_DIR, inherited by the
// workers and their children). An open VS Code, a running code-server or a second test run on this
// machine then never changes a result, and the user's own assistants never see a test's window.
// The name does not start with "redline-", the fallback folders an MCP server without it looks in.
const fs = require('fs');
const os = require('os');
const path = require('path');

module.exports = async function makeRuntimeDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-test-'));
  process.env.REDLINE_RUNTIME_DIR = dir;
  globalThis.redlineRuntimeDir = dir;
};
