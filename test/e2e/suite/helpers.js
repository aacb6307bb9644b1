// What the extension-host tests share: the extension under test, a real terminal's environment,
// and an MCP client talking to the packaged MCP server over stdio, as an assistant would.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const vscode = require('vscode');

const REPO_ROOT = path.resolve(__dirname, '../../..');
/** Resolves packages from the repo's node_modules: the extension host has none of its own. */
const repoRequire = createRequire(path.join(REPO_ROOT, 'package.json'));

const EXTENSION_ID = 'redline-dev.redline';
const IPC_NAMES = ['REDLINE_IPC_PATH', 'REDLINE_IPC_TOKEN'];

/**
 * What every process of an e2e run inherits, for a server started with an environment of its own:
 * test/e2e/run.mjs's marker (it finds leftovers by it) and the run's folder of discovery files.
 * (harness/processes.mjs has the same for the UI side, which is an ES module.)
 * @returns {Record<string, string>}
 */
function runEnvironment() {
  const env = {};
  for (const name of ['REDLINE_E2E_RUN', 'REDLINE_RUNTIME_DIR']) if (process.env[name]) env[name] = process.env[name];
  return env;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns something truthy; throws with `what` after `timeoutMs`.
 * @template T @param {() => T | Promise<T>} probe @param {string} what @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function waitFor(probe, what, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(50);
  }
}

/** The extension under test, activated, and the test API its activate() returns. */
async function redline() {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  const api = await extension.activate();
  return { extension, api };
}

function workspaceRoot() {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The tests need a workspace folder (the fixture workspace) to be open');
  return folder.uri.fsPath;
}

/**
 * Starts a real integrated terminal whose shell writes `names` to a file, and returns what
 * the shell saw (undefined when unset): exactly the environment an assistant started there gets.
 * @param {string[]} names
 * @returns {Promise<Record<string, string | undefined>>}
 */
async function readTerminalEnv(names) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-env-'));
  const outFile = path.join(dir, 'env.tsv');
  const script = names.map((name) => `printf '%s\\t%s\\t%s\\n' ${name} "\${${name}+1}" "\${${name}-}"`).join('; ');
  const terminal = vscode.window.createTerminal({
    name: 'redline-e2e-env',
    shellPath: '/bin/sh',
    shellArgs: ['-c', `{ ${script}; } > '${outFile}.tmp' && mv '${outFile}.tmp' '${outFile}'`],
  });
  try {
    await waitFor(() => fs.existsSync(outFile), `the terminal's shell to write ${outFile}`, 20_000);
    /** @type {Record<string, string | undefined>} */
    const values = {};
    for (const line of fs.readFileSync(outFile, 'utf8').split('\n')) {
      const [name, isSet, ...value] = line.split('\t');
      if (name) values[name] = isSet === '1' ? value.join('\t') : undefined;
    }
    return values;
  } finally {
    terminal.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let terminalEnvOnce;
/** The bridge variables of a terminal opened after activation; read once per run. */
function terminalIpcEnv() {
  terminalEnvOnce ??= readTerminalEnv(IPC_NAMES);
  return terminalEnvOnce;
}

/**
 * Spawns the packaged MCP server (`<extension>/dist/mcp-server.js`) with the environment a
 * terminal gets and connects the SDK's Client to it over stdio.
 * @param {{ serverPath: string, env: Record<string, string>, cwd: string }} options
 */
async function connectMcp({ serverPath, env, cwd, era = 'legacy' }) {
  const { Client } = repoRequire('@modelcontextprotocol/client');
  const { StdioClientTransport } = repoRequire('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({
    // The extension host's own runtime; in desktop VS Code that is Electron, hence ELECTRON_RUN_AS_NODE.
    command: process.execPath,
    args: [serverPath],
    cwd,
    env: {
      ...env,
      ELECTRON_RUN_AS_NODE: '1',
      // Routine lines too, for the failure message.
      REDLINE_LOG: 'debug',
      ...runEnvironment(),
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  // 'legacy' opens with initialize (Codex, Gemini CLI); 'modern' is pinned to 2026-07-28.
  const mode = era === 'modern' ? { pin: '2026-07-28' } : era;
  const client = new Client({ name: 'redline-e2e-suite', version: '0.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  /**
   * The raw CallToolResult, tool errors included; a dead server's stderr is in the error.
   * @param {string} name @param {Record<string, unknown>} [args] @param {{ timeoutMs?: number }} [options]
   */
  const raw = async (name, args = {}, { timeoutMs = 30_000 } = {}) => {
    try {
      return await client.callTool({ name, arguments: args }, { timeout: timeoutMs });
    } catch (error) {
      error.message += `\n--- MCP server stderr ---\n${stderr.trim() || '(empty)'}`;
      throw error;
    }
  };
  return {
    client,
    stderr: () => stderr,
    /**
     * Calls a tool and returns its structured result; a tool error becomes a thrown Error.
     * @param {string} name @param {Record<string, unknown>} [args] @param {{ timeoutMs?: number }} [options]
     */
    async call(name, args = {}, options = {}) {
      const result = await raw(name, args, options);
      if (result.isError) {
        const error = new Error(`${name} failed: ${result.content?.[0]?.text ?? JSON.stringify(result)}`);
        error.toolResult = result;
        throw error;
      }
      return result.structuredContent;
    },
    raw,
    close: () => client.close(),
  };
}

/**
 * The packaged MCP server of `extension`, started in the workspace with a terminal's bridge
 * variables, exactly as an assistant started in that terminal would run it.
 * @param {import('vscode').Extension<unknown>} extension
 */
async function connectPackagedMcp(extension, era = 'legacy') {
  const env = await terminalIpcEnv();
  return connectMcp({
    serverPath: path.join(extension.extensionPath, 'dist', 'mcp-server.js'),
    env: { REDLINE_IPC_PATH: env.REDLINE_IPC_PATH, REDLINE_IPC_TOKEN: env.REDLINE_IPC_TOKEN },
    cwd: workspaceRoot(),
    era,
  });
}

module.exports = {
  EXTENSION_ID,
  IPC_NAMES,
  REPO_ROOT,
  connectMcp,
  connectPackagedMcp,
  readTerminalEnv,
  redline,
  repoRequire,
  runEnvironment,
  sleep,
  terminalIpcEnv,
  waitFor,
  workspaceRoot,
};
