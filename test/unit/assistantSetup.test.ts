// What "Redline: Connect an Assistant…" hands the user: every snippet parses in its own format,
// names a server file that exists, quotes Windows and POSIX paths right, and carries no socket
// or token (the server finds the window itself), except Other's, which offers them to pin a window.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { IPC_PATH_ENV, IPC_TOKEN_ENV } from '../../shared/protocol';
import {
  ASSISTANTS,
  buildSetup,
  shellCommand,
  tomlString,
  type AssistantId,
  type SetupOptions,
  type ShellFlavor,
} from '../../extension/src/assistants/assistantSetup';
import { claudeAddArgs } from '../../extension/src/assistants/claudeCode';
import { serverEntry } from '../../extension/src/assistants/configFiles/configTargets';
import {
  findOnPath,
  mcpServerDefinition,
  resolveNodeCommand,
  serverScriptPath,
  type NodeCommand,
} from '../../extension/src/assistants/serverLaunch';
import { WORKSPACE_ENV } from '../../shared/discovery';
import { SERVER_ENV_NAMES } from '../../shared/environment';

// smol-toml's types are ES-module only to TypeScript's Node16 mode, so this CommonJS file imports it dynamically.
let parseToml: (typeof import('smol-toml', { with: { 'resolution-mode': 'import' } }))['parse'];
beforeAll(async () => {
  ({ parse: parseToml } = await import('smol-toml'));
});

const NODE: NodeCommand = { command: 'node', env: {} };

/** A config's servers as these tests read them. */
type Servers = Record<string, { command: string; args: string[]; env?: Record<string, string>; type?: string }>;
type CodexConfig = { mcp_servers: Servers };
const TOKEN = '0123456789abcdef0123456789abcdef';
const POSIX_IPC = { path: '/run/user/1000/redline/0123456789ab.sock', token: TOKEN };
const WINDOWS_IPC = { path: '\\\\.\\pipe\\redline-0123456789ab', token: TOKEN };
const WINDOWS_SERVER = 'C:\\Users\\Jane Doe\\.vscode\\extensions\\redline-dev.redline-0.1.0\\dist\\mcp-server.js';
const WINDOWS_CODE = 'C:\\Program Files\\Microsoft VS Code\\Code.exe';
const LINUX_CODE = '/usr/share/code/code';

let extensionDir: string;
let serverPath: string;

beforeAll(() => {
  // A real installation folder whose name needs quoting: a space, an apostrophe and a dollar.
  extensionDir = fs.mkdtempSync(path.join(os.tmpdir(), "redline it's $HOME "));
  serverPath = serverScriptPath(extensionDir);
  fs.mkdirSync(path.dirname(serverPath), { recursive: true });
  fs.writeFileSync(serverPath, '// the bundled server\n');
});

afterAll(() => fs.rmSync(extensionDir, { recursive: true, force: true }));

function setup(assistant: AssistantId, overrides: Partial<SetupOptions> = {}) {
  return buildSetup(assistant, { serverPath, nodeCommand: NODE, ipc: POSIX_IPC, shell: 'posix', ...overrides });
}

// ---- tiny shell-words splitters, one per flavour ---------------------------------------------

/** sh's rules: '…' is literal, "…" keeps \ before $ ` " \ only, a bare \ escapes the next character. */
function splitPosix(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      word ??= '';
      for (i++; line[i] !== '"'; i++) {
        if (i >= line.length) throw new Error(`unterminated " in ${line}`);
        if (line[i] === '$' || line[i] === '`') throw new Error(`unquoted expansion in ${line}`);
        if (line[i] === '\\' && '$`"\\'.includes(line[i + 1])) i++;
        word += line[i];
      }
    } else if (char === '\\') {
      word = (word ?? '') + line[++i];
    } else {
      if ('$`;&|<>(){}*?!~#'.includes(char)) throw new Error(`special character ${char} unquoted in ${line}`);
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * PowerShell's rules for what we write: an optional `& ` call operator, '…' literal with '' for a
 * quote (typographic quotes count too), bare words of plain characters; anything PowerShell would
 * expand or treat as syntax outside quotes is an error.
 */
function splitPowerShell(line: string): string[] {
  const quote = /['\u2018\u2019\u201a\u201b]/;
  const words: string[] = [];
  let rest = line;
  const call = rest.startsWith('& ');
  if (call) rest = rest.slice(2);
  for (let i = 0; i < rest.length;) {
    if (rest[i] === ' ') {
      i++;
      continue;
    }
    let word = '';
    if (quote.test(rest[i])) {
      for (i++; ; i++) {
        if (i >= rest.length) throw new Error(`unterminated ' in ${line}`);
        if (quote.test(rest[i])) {
          if (quote.test(rest[i + 1] ?? '')) word += rest[++i];
          else break;
        } else word += rest[i];
      }
      i++;
    } else {
      for (; i < rest.length && rest[i] !== ' '; i++) {
        if (/[$`"'@,;&|<>(){}#]/.test(rest[i])) throw new Error(`PowerShell would read ${rest[i]} in ${line}`);
        word += rest[i];
      }
    }
    words.push(word);
  }
  if (!call && /^['\u2018\u2019\u201a\u201b]/.test(line)) throw new Error(`PowerShell would print, not run, ${line}`);
  return words;
}

/**
 * cmd.exe's rules, then the C runtime's. cmd expands %NAME% first wherever it is (a name it could
 * have defined is an error here), then takes ^ as an escape and & | < > as syntax outside its
 * quotes. The runtime splits what is left: "…" groups, and n backslashes before a quote are n/2
 * (an odd one makes the quote literal).
 */
function splitCmd(line: string): string[] {
  for (const match of line.matchAll(/%([^%]*)%/g)) {
    if (/^[A-Za-z_][\w()]*$/.test(match[1])) throw new Error(`cmd would expand %${match[1]}% in ${line}`);
  }
  let passed = '';
  let cmdQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '"') cmdQuoted = !cmdQuoted;
    if (!cmdQuoted && char === '^') passed += line[++i];
    else if (!cmdQuoted && '&|<>'.includes(char)) throw new Error(`cmd would read ${char} in ${line}`);
    else passed += char;
  }
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  for (let i = 0; i < passed.length; i++) {
    const char = passed[i];
    if (char === '\\') {
      let end = i;
      while (passed[end] === '\\') end++;
      const count = end - i;
      if (passed[end] === '"') {
        word = (word ?? '') + '\\'.repeat(count >> 1);
        if (count % 2 === 1) {
          word += '"';
          i = end;
        } else {
          i = end - 1;
        }
      } else {
        word = (word ?? '') + '\\'.repeat(count);
        i = end - 1;
      }
    } else if (char === '"') {
      quoted = !quoted;
      word ??= '';
    } else if (!quoted && char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quoted) throw new Error(`unterminated " in ${line}`);
  if (word !== undefined) words.push(word);
  return words;
}

const split: Record<ShellFlavor, (line: string) => string[]> = {
  posix: splitPosix,
  powershell: splitPowerShell,
  cmd: splitCmd,
};

// ---- every assistant ------------------------------------------------------------------------

describe('the assistant list', () => {
  it('offers each assistant once, Claude Code first and Other last', () => {
    const ids = ASSISTANTS.map((a) => a.id);
    expect(ids).toEqual(['claude-code', 'cursor', 'codex', 'gemini', 'vscode', 'other']);
    expect(new Set(ASSISTANTS.map((a) => a.label)).size).toBe(ASSISTANTS.length);
  });

  it.each(ASSISTANTS.map((a) => a.id))('%s: has a title and a note', (id) => {
    const result = setup(id);
    expect(result.title).not.toBe('');
    expect(result.note).not.toBe('');
  });

  it.each(ASSISTANTS.map((a) => a.id))(
    '%s: a command has no trailing newline (pasting must not run it); a file ends in one',
    (id) => {
      const result = setup(id);
      expect(result.text.endsWith('\n')).toBe(result.language !== 'shellscript');
    },
  );

  it.each(ASSISTANTS.map((a) => a.id).filter((id) => id !== 'other'))(
    '%s: names no socket and no token, and says how the server finds the window',
    (id) => {
      const result = setup(id);
      // Codex's env_vars names the variables to pass through, holding no value of them.
      const withoutPassThrough = result.text.replace(/^env_vars = \[.*\]$/m, '');
      for (const secret of [TOKEN, POSIX_IPC.path, IPC_PATH_ENV, IPC_TOKEN_ENV])
        expect(withoutPassThrough).not.toContain(secret);
      expect(result.containsSecret).toBe(false);
      expect(result.note).toContain('works from any terminal in the project');
      expect(result.note).toContain(`${WORKSPACE_ENV}=<folder>`);
      expect(result.note).toContain('--workspace <folder>');
      // The same with or without this window's bridge: nothing in it depends on the window.
      expect(setup(id, { ipc: undefined }).text).toBe(result.text);
    },
  );

  it.each(ASSISTANTS.map((a) => a.id))(
    '%s: with the stable launcher, says the path survives updates; without it, to run the command again',
    (id) => {
      expect(setup(id, { stablePath: true }).note).toContain('stays the same when Redline updates');
      expect(setup(id, { stablePath: false }).note).toContain(
        'run "Redline: Connect an Assistant…" again after Redline updates',
      );
    },
  );
});

// ---- Claude Code ----------------------------------------------------------------------------

describe('Claude Code', () => {
  it('is one `claude mcp add` command for all projects that runs the real server file with node', () => {
    const result = setup('claude-code');
    expect(result.language).toBe('shellscript');
    const argv = splitPosix(result.text);
    expect(argv).toEqual(['claude', 'mcp', 'add', '--scope', 'user', 'redline', 'node', serverPath]);
    expect(fs.existsSync(argv[argv.length - 1])).toBe(true);
  });

  it('is the same argv that Redline runs itself when `claude` is on PATH', () => {
    expect(splitPosix(setup('claude-code').text)).toEqual(['claude', ...claudeAddArgs(serverPath, NODE)]);
  });

  it('survives a real POSIX shell: sh hands the same argv to the program', () => {
    if (process.platform === 'win32') return;
    const result = setup('claude-code', { nodeCommand: { command: LINUX_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } } });
    // Swap `claude` for a program that prints its arguments, NUL-separated.
    const printed = execFileSync('sh', ['-c', result.text.replace(/^claude /, `printf '%s\\0' `)], {
      encoding: 'utf8',
    });
    expect(printed.split('\0').slice(0, -1)).toEqual(splitPosix(result.text).slice(1));
  });

  it('without node on PATH, runs VS Code as Node.js, with -e placed where it cannot swallow the name', () => {
    const result = setup('claude-code', { nodeCommand: { command: LINUX_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } } });
    expect(splitPosix(result.text)).toEqual([
      'claude',
      'mcp',
      'add',
      '-e',
      'ELECTRON_RUN_AS_NODE=1',
      '--scope',
      'user',
      'redline',
      LINUX_CODE,
      serverPath,
    ]);
    expect(result.note).toContain('ELECTRON_RUN_AS_NODE');
  });

  it('quotes Windows paths for PowerShell, gives the cmd form in the note, and has no bare `--`', () => {
    const result = setup('claude-code', {
      serverPath: WINDOWS_SERVER,
      nodeCommand: { command: WINDOWS_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } },
      shell: 'powershell',
    });
    const argv = [
      'claude',
      'mcp',
      'add',
      '-e',
      'ELECTRON_RUN_AS_NODE=1',
      '--scope',
      'user',
      'redline',
      WINDOWS_CODE,
      WINDOWS_SERVER,
    ];
    expect(result.text).toBe(
      `claude mcp add -e ELECTRON_RUN_AS_NODE=1 --scope user redline '${WINDOWS_CODE}' '${WINDOWS_SERVER}'`,
    );
    expect(splitPowerShell(result.text)).toEqual(argv);
    const cmdForm = /In cmd\.exe instead of PowerShell: (.*)/.exec(result.note)?.[1];
    expect(cmdForm).toBe(
      `claude mcp add -e ELECTRON_RUN_AS_NODE=1 --scope user redline "${WINDOWS_CODE}" "${WINDOWS_SERVER}"`,
    );
    expect(splitCmd(cmdForm!)).toEqual(argv);
    expect(argv).not.toContain('--');
  });
});

// ---- Codex CLI ------------------------------------------------------------------------------

describe('Codex CLI', () => {
  it("is a [mcp_servers.redline] table that parses and runs the real file, and passes Redline's variables through", () => {
    const result = setup('codex');
    expect(result.language).toBe('toml');
    const server = (parseToml(result.text) as CodexConfig).mcp_servers.redline;
    expect(server).toEqual({ command: 'node', args: [serverPath], env_vars: [...SERVER_ENV_NAMES] });
    expect(fs.existsSync(server.args[0])).toBe(true);
    expect(result.note).toContain("env_vars passes Redline's through");
  });

  it('keeps Windows paths intact, and sets ELECTRON_RUN_AS_NODE when VS Code is the runtime', () => {
    const result = setup('codex', {
      serverPath: WINDOWS_SERVER,
      nodeCommand: { command: WINDOWS_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } },
      shell: 'powershell',
    });
    const server = (parseToml(result.text) as CodexConfig).mcp_servers.redline;
    expect(server.command).toBe(WINDOWS_CODE);
    expect(server.args).toEqual([WINDOWS_SERVER]);
    expect(server.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });
});

describe('tomlString', () => {
  it.each([
    ['node', '"node"'],
    [WINDOWS_SERVER, `'${WINDOWS_SERVER}'`],
    ["C:\\it's", '"C:\\\\it\'s"'],
    ['say "hi"', `'say "hi"'`],
  ])('writes %s as %s', (value, expected) => {
    expect(tomlString(value)).toBe(expected);
  });

  it('round-trips any string through a TOML parser', () => {
    const awkward = fc.constantFrom(
      'a',
      ' ',
      "'",
      '"',
      '\\',
      '\t',
      '\n',
      '\r',
      '\u0000',
      '\u001f',
      '\u007f',
      'é',
      '😀',
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: awkward })), (value) => {
        expect(parseToml(`value = ${tomlString(value)}`).value).toBe(value);
      }),
    );
  });
});

// ---- Gemini CLI -----------------------------------------------------------------------------

describe('Gemini CLI', () => {
  it('is an mcpServers entry that parses and runs the real file, with no environment', () => {
    const result = setup('gemini');
    expect(result.language).toBe('json');
    const server = JSON.parse(result.text).mcpServers.redline;
    expect(server).toEqual({ command: 'node', args: [serverPath] });
    expect(fs.existsSync(server.args[0])).toBe(true);
    expect(result.note).toContain('starts MCP servers only in folders you trust');
  });

  it('escapes Windows paths and adds ELECTRON_RUN_AS_NODE when VS Code is the runtime', () => {
    const result = setup('gemini', {
      serverPath: WINDOWS_SERVER,
      nodeCommand: { command: WINDOWS_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } },
    });
    const server = JSON.parse(result.text).mcpServers.redline;
    expect(server.command).toBe(WINDOWS_CODE);
    expect(server.args).toEqual([WINDOWS_SERVER]);
    expect(server.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });
});

// ---- Cursor and VS Code: user-level files, the same entry as the config writers put there ------

describe.each([
  ['cursor', (doc: { mcpServers: Servers }) => doc.mcpServers.redline, '~/.cursor/mcp.json'],
  ['vscode', (doc: { servers: Servers }) => doc.servers.redline, 'user mcp.json'],
] as const)('%s', (id, entry, file) => {
  it("parses, runs the real file, and is meant for the user's own file, not a project's", () => {
    const result = setup(id);
    expect(result.language).toBe('json');
    const server = entry(JSON.parse(result.text));
    expect(server.command).toBe('node');
    expect(server.args).toEqual([serverPath]);
    expect(server.env).toBeUndefined();
    expect(fs.existsSync(server.args[0])).toBe(true);
    expect(result.title + result.note).toContain(file);
    expect(result.title).not.toMatch(/project|\.vscode\//);
  });

  it('keeps Windows paths intact, with ELECTRON_RUN_AS_NODE when VS Code is the runtime', () => {
    const result = setup(id, {
      serverPath: WINDOWS_SERVER,
      nodeCommand: { command: WINDOWS_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } },
      ipc: WINDOWS_IPC,
      shell: 'powershell',
    });
    const server = entry(JSON.parse(result.text));
    expect(server.command).toBe(WINDOWS_CODE);
    expect(server.args).toEqual([WINDOWS_SERVER]);
    expect(server.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });

  it('is the entry "Connect an Assistant" writes into the file', () => {
    expect(entry(JSON.parse(setup(id).text))).toEqual(serverEntry(id, serverPath, NODE));
  });
});

describe('VS Code', () => {
  it('declares a stdio server and says that agent mode already has Redline', () => {
    const result = setup('vscode');
    expect(JSON.parse(result.text).servers.redline.type).toBe('stdio');
    expect(result.note).toContain('MCP: List Servers');
  });
});

// ---- Other ----------------------------------------------------------------------------------

describe('Other', () => {
  function parseOther(text: string, shell: ShellFlavor) {
    const [commandLine, ...more] = text.trimEnd().split('\n');
    const [blank, ...rest] = more;
    if (more.length > 0) expect(blank).toBe('');
    const env = Object.fromEntries(
      rest.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return { argv: split[shell](commandLine), env };
  }

  it("is the command line and the two variables with this window's values", () => {
    const result = setup('other');
    expect(result.language).toBe('plaintext');
    const { argv, env } = parseOther(result.text, 'posix');
    expect(argv).toEqual(['node', serverPath]);
    expect(fs.existsSync(argv[1])).toBe(true);
    expect(env).toEqual({ [IPC_PATH_ENV]: POSIX_IPC.path, [IPC_TOKEN_ENV]: TOKEN });
    expect(result.containsSecret).toBe(true);
  });

  it.each(['powershell', 'cmd'] as const)(
    'on Windows (%s) without node, quotes the paths, runs a quoted .exe, and lists ELECTRON_RUN_AS_NODE',
    (shell) => {
      const result = setup('other', {
        serverPath: WINDOWS_SERVER,
        nodeCommand: { command: WINDOWS_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } },
        ipc: WINDOWS_IPC,
        shell,
      });
      if (shell === 'powershell') expect(result.text.startsWith(`& '${WINDOWS_CODE}'`)).toBe(true);
      const { argv, env } = parseOther(result.text, shell);
      expect(argv).toEqual([WINDOWS_CODE, WINDOWS_SERVER]);
      expect(env).toEqual({ ELECTRON_RUN_AS_NODE: '1', [IPC_PATH_ENV]: WINDOWS_IPC.path, [IPC_TOKEN_ENV]: TOKEN });
    },
  );

  it('without a running bridge, still names the variables in the note', () => {
    const result = setup('other', { ipc: undefined });
    expect(parseOther(result.text, 'posix').env).toEqual({});
    expect(result.note).toContain(IPC_PATH_ENV);
    expect(result.note).toContain('bridge is not running');
  });
});

// ---- shell quoting on its own ---------------------------------------------------------------

describe('shellCommand', () => {
  const awkwardPaths = ["/opt/my tools/it's/mcp-server.js", '/tmp/$HOME/`x`/"q"/mcp-server.js', '/plain/path.js'];

  it.each(awkwardPaths)('POSIX: %s comes back as one argument', (file) => {
    expect(splitPosix(shellCommand(['node', file], 'posix'))).toEqual(['node', file]);
  });

  it('POSIX: sh agrees', () => {
    if (process.platform === 'win32') return;
    const printed = execFileSync('sh', ['-c', `printf '%s\\0' ${shellCommand(awkwardPaths, 'posix')}`], {
      encoding: 'utf8',
    });
    expect(printed.split('\0').slice(0, -1)).toEqual(awkwardPaths);
  });

  const awkwardWindowsPaths = [
    '\\\\server\\share\\Redline Ext\\mcp-server.js',
    "C:\\Users\\O'Brien\\$(calc)\\`whoami`\\$env:TEMP\\mcp-server.js",
    'C:\\100%PATH%\\a&b|c<d>e^f\\%USERPROFILE%\\mcp-server.js',
    'C:\\Redline\\%TEMP%\\',
    'C:\\it\u2019s\\mcp-server.js',
    'C:\\plain\\mcp-server.js',
  ];

  it.each(awkwardWindowsPaths)('PowerShell: %s comes back as one argument, and nothing in it runs', (file) => {
    expect(splitPowerShell(shellCommand(['node', file], 'powershell'))).toEqual(['node', file]);
    expect(splitPowerShell(shellCommand([file, 'x'], 'powershell'))).toEqual([file, 'x']);
  });

  it.each(awkwardWindowsPaths)('cmd: %s comes back as one argument, and no %%VAR%% expands', (file) => {
    expect(splitCmd(shellCommand(['node', file], 'cmd'))).toEqual(['node', file]);
  });

  it('the splitters catch what the old quoting let through', () => {
    expect(() => splitPowerShell('node "C:\\$(calc)\\x.js"')).toThrow(/would read/);
    expect(() => splitPowerShell("'C:\\Program Files\\node.exe' x.js")).toThrow(/print, not run/);
    expect(() => splitCmd('node "C:\\%USERPROFILE%\\x.js"')).toThrow(/expand %USERPROFILE%/);
  });
});

// ---- the runtime and the editor's own definition ------------------------------------------------

describe('resolveNodeCommand', () => {
  it('uses `node` when PATH has it', () => {
    const seen: string[] = [];
    const node = resolveNodeCommand({
      pathEnv: '/usr/local/bin::/usr/bin',
      platform: 'linux',
      execPath: LINUX_CODE,
      isExecutableFile: (file) => (seen.push(file), file === '/usr/bin/node'),
    });
    expect(node).toEqual({ command: 'node', env: {} });
    expect(seen).toEqual(['/usr/local/bin/node', '/usr/bin/node']);
  });

  it('falls back to the editor run as Node.js when PATH has no node', () => {
    const node = resolveNodeCommand({
      pathEnv: '/usr/bin',
      platform: 'linux',
      execPath: LINUX_CODE,
      isExecutableFile: () => false,
    });
    expect(node).toEqual({ command: LINUX_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } });
  });

  it('on Windows, looks for node.exe in ;-separated, possibly quoted entries', () => {
    const found = findOnPath('node', {
      pathEnv: 'C:\\Windows\\system32;"C:\\Program Files\\nodejs";',
      platform: 'win32',
      execPath: WINDOWS_CODE,
      isExecutableFile: (file) => file === 'C:\\Program Files\\nodejs\\node.exe',
    });
    expect(found).toBe('C:\\Program Files\\nodejs\\node.exe');
  });

  it('with no PATH at all, falls back to the editor', () => {
    expect(resolveNodeCommand({ pathEnv: undefined, platform: 'win32', execPath: WINDOWS_CODE }).command).toBe(
      WINDOWS_CODE,
    );
  });

  it('checks the real file system: a `node` without the execute bit does not count', () => {
    if (process.platform === 'win32') return;
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-bin-'));
    try {
      const node = path.join(bin, 'node');
      fs.writeFileSync(node, '#!/bin/sh\n', { mode: 0o644 });
      expect(findOnPath('node', { pathEnv: bin, platform: 'linux', execPath: LINUX_CODE })).toBeUndefined();
      fs.chmodSync(node, 0o755);
      expect(findOnPath('node', { pathEnv: bin, platform: 'linux', execPath: LINUX_CODE })).toBe(node);
      fs.mkdirSync(path.join(bin, 'sub', 'node'), { recursive: true });
      expect(
        findOnPath('node', { pathEnv: path.join(bin, 'sub'), platform: 'linux', execPath: LINUX_CODE }),
      ).toBeUndefined();
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('mcpServerDefinition (what VS Code agent mode starts)', () => {
  it("runs the server file with node and this window's socket and token", () => {
    expect(mcpServerDefinition(serverPath, NODE, POSIX_IPC)).toEqual({
      label: 'Redline',
      command: 'node',
      args: [serverPath],
      env: { [IPC_PATH_ENV]: POSIX_IPC.path, [IPC_TOKEN_ENV]: TOKEN },
    });
    expect(fs.existsSync(mcpServerDefinition(serverPath, NODE, POSIX_IPC).args[0])).toBe(true);
  });

  it('without node, runs the editor as Node.js', () => {
    const definition = mcpServerDefinition(
      WINDOWS_SERVER,
      { command: WINDOWS_CODE, env: { ELECTRON_RUN_AS_NODE: '1' } },
      WINDOWS_IPC,
    );
    expect(definition.command).toBe(WINDOWS_CODE);
    expect(definition.args).toEqual([WINDOWS_SERVER]);
    expect(definition.env).toEqual({
      ELECTRON_RUN_AS_NODE: '1',
      [IPC_PATH_ENV]: WINDOWS_IPC.path,
      [IPC_TOKEN_ENV]: TOKEN,
    });
  });

  it('passes redline.requestTimeoutMs as REDLINE_TIMEOUT_MS when it is set, and nothing when it is 0', () => {
    expect(mcpServerDefinition(serverPath, NODE, POSIX_IPC, 45_000).env).toEqual({
      [IPC_PATH_ENV]: POSIX_IPC.path,
      [IPC_TOKEN_ENV]: TOKEN,
      REDLINE_TIMEOUT_MS: '45000',
    });
    expect(mcpServerDefinition(serverPath, NODE, POSIX_IPC, 0).env).not.toHaveProperty('REDLINE_TIMEOUT_MS');
  });

  it('finds the bundled server under dist/', () => {
    expect(serverScriptPath('/ext')).toBe(path.join('/ext', 'dist', 'mcp-server.js'));
  });
});
