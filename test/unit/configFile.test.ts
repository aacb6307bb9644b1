// "Connect an Assistant" and "Remove Redline from…" without the editor's dialogs: with HOME a
// temporary folder, Redline's entry is merged into each assistant's real config file, the user's
// other entries and comments stay, a backup is kept, the file's mode is kept, and the entry it
// wrote really starts the server through the stable launcher.

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse as parseJsonc } from 'jsonc-parser';
import {
  ConfigFileError,
  planConfigChange,
  writeConfigChange,
  type ConfigPlan,
} from '../../extension/src/assistants/configFiles/configFile';
import {
  configTarget,
  serverEntry,
  vscodeUserDirectory,
  type ConfigTarget,
  type FileAssistant,
} from '../../extension/src/assistants/configFiles/configTargets';
import type { NodeCommand } from '../../extension/src/assistants/serverLaunch';
import { SERVER_ENV_NAMES } from '../../shared/environment';
import { stableServerPath, updateStableServerPath } from '../../extension/src/assistants/stableServerPath';
import { expectDurablyReplaced, watchFileEvents } from './durableWrites';

// smol-toml's types are ES-module only to TypeScript's Node16 mode, so this CommonJS file imports it dynamically.
let parseToml: (typeof import('smol-toml', { with: { 'resolution-mode': 'import' } }))['parse'];
beforeAll(async () => {
  ({ parse: parseToml } = await import('smol-toml'));
});

const NODE: NodeCommand = { command: process.execPath, env: {} };

let home: string;
let server: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-home-'));
  // An installed Redline whose server says it ran, and the launcher pointing at it.
  server = path.join(home, '.vscode', 'extensions', 'redline-dev.redline-0.2.0', 'dist', 'mcp-server.js');
  fs.mkdirSync(path.dirname(server), { recursive: true });
  fs.writeFileSync(server, "process.stdout.write('redline server ' + JSON.stringify(process.argv.slice(2)));\n");
  updateStableServerPath(server, '0.2.0', home);
});

afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function target(assistant: FileAssistant): ConfigTarget {
  const found = configTarget(assistant, { home, vscodeUserDirectory: path.join(home, '.config', 'Code', 'User') });
  if (!found) throw new Error(`no target for ${assistant}`);
  return found;
}

const add = (assistant: FileAssistant) =>
  planConfigChange(target(assistant), { kind: 'set', entry: serverEntry(assistant, stableServerPath(home), NODE) });

function change(plan: ConfigPlan) {
  if (plan.kind !== 'change') throw new Error(`expected a change, got ${JSON.stringify(plan)}`);
  return plan.change;
}

function write(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
}

/** Runs the entry as an assistant would: its command with its args, and nothing in the environment. */
function runEntry(entry: { command: string; args: string[]; env?: Record<string, string> }): string {
  const run = spawnSync(entry.command, entry.args, { encoding: 'utf8', env: { ...entry.env }, cwd: home });
  expect(run.stderr).toBe('');
  return run.stdout;
}

/**
 * Every non-blank line of `original` is in `text`: as it was, or with the comma that now joins it
 * to a property after it. (An empty `{}` that received the entry is the one line that changes.)
 */
function expectLinesKept(text: string, original: string): void {
  for (const line of original.split('\n').map((l) => l.trimEnd())) {
    if (!line.trim() || line.endsWith('{}')) continue;
    const withComma = line.replace(/^(.*?\S)(\s*\/\/.*)?$/, '$1,$2');
    expect([line, withComma].some((form) => text.includes(form)) ? line : `missing: ${line}`).toBe(line);
  }
}

const CURSOR = `{
  // Cursor's servers, by hand
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] } // work
  }
}
`;

const GEMINI = `{
\t"theme": "GitHub",
\t/* keep */
\t"mcpServers": {}
}
`;

const CODEX = `# my Codex settings
model = "gpt-5"   # the good one

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
`;

describe("Gemini CLI's settings.json, which Gemini cannot read with a trailing comma", () => {
  it('refuses to add the entry to a file that has one, says where, and writes nothing', async () => {
    const file = path.join(home, '.gemini', 'settings.json');
    const original = '{\n  "ui": { "theme": "GitHub", },\n  "mcpServers": {}\n}\n';
    write(file, original, 0o600);
    expect(await add('gemini')).toMatchObject({
      kind: 'invalid',
      message: `~${path.sep}.gemini${path.sep}settings.json has a trailing comma (before line 2, column 30), which Gemini CLI cannot read: remove it; nothing was written. Fix the file, then try again.`,
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('adds it to a file whose only trailing comma ends the servers, leaving none', async () => {
    const file = path.join(home, '.gemini', 'settings.json');
    write(file, '{\n  "mcpServers": {\n    "github": { "command": "npx" },\n  }\n}\n', 0o600);
    const after = change(await add('gemini')).after;
    expect(() => JSON.parse(after)).not.toThrow();
    expect(Object.keys(JSON.parse(after).mcpServers)).toEqual(['github', 'redline']);
  });
});

describe('Connect an Assistant writes a merged config into a temporary HOME, and leaves the existing entries and comments intact', () => {
  it.each([
    ['cursor', '.cursor/mcp.json', CURSOR, (text: string) => parseJsonc(text).mcpServers],
    ['gemini', '.gemini/settings.json', GEMINI, (text: string) => parseJsonc(text).mcpServers],
    [
      'codex',
      '.codex/config.toml',
      CODEX,
      (text: string) => parseToml(text).mcp_servers as Record<string, Record<string, unknown>>,
    ],
  ] as const)('%s: %s', async (assistant, relative, original, servers) => {
    const file = path.join(home, relative);
    write(file, original, 0o600);
    const planned = change(await add(assistant));
    expect(planned.before).toBe(original);

    const now = new Date(2025, 0, 2, 3, 4, 5);
    const watch = await watchFileEvents();
    let written;
    try {
      written = await writeConfigChange(planned, now);
    } finally {
      watch.stop();
    }
    // Crash-safe: the backup's bytes and the new file's fsynced before the rename, the folder after it.
    expectDurablyReplaced(watch.events, file);
    expect(
      watch.events.findIndex((event) => event.kind === 'fsync' && event.path === written.backup),
    ).toBeGreaterThanOrEqual(0);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toBe(planned.after);
    // Everything the user had is still there, line for line.
    expectLinesKept(text, original);
    expect(Object.keys(servers(text)).sort()).toEqual([...Object.keys(servers(original)), 'redline'].sort());
    // No secret in the file; the same mode; the old file kept beside it.
    expect(text.replace(/^env_vars = \[.*\]$/m, '')).not.toMatch(/REDLINE_IPC|token/i);
    if (assistant === 'codex') expect(servers(text).redline.env_vars).toEqual([...SERVER_ENV_NAMES]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(written.backup).toBe(`${file}.redline-backup-20250102-030405`);
    expect(fs.readFileSync(written.backup!, 'utf8')).toBe(original);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(
      [path.basename(file), path.basename(written.backup!)].sort(),
    );

    // The entry starts the installed server through the launcher, with no variables at all.
    expect(runEntry(servers(text).redline)).toBe('redline server []');
  });

  it('creates a missing file and its folder, crash-safely, with no backup', async () => {
    const file = path.join(home, '.cursor', 'mcp.json');
    const planned = change(await add('cursor'));
    const watch = await watchFileEvents();
    let written;
    try {
      written = await writeConfigChange(planned);
    } finally {
      watch.stop();
    }
    expectDurablyReplaced(watch.events, file);
    expect(written).toEqual({ file });
    expect(parseJsonc(fs.readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { redline: { command: process.execPath, args: [stableServerPath(home)] } },
    });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o022).toBe(0);
  });

  it("writes VS Code's user mcp.json as a stdio server", async () => {
    await writeConfigChange(change(await add('vscode')));
    const written = parseJsonc(fs.readFileSync(path.join(home, '.config', 'Code', 'User', 'mcp.json'), 'utf8'));
    expect(written.servers.redline).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [stableServerPath(home)],
    });
  });

  it('says there is nothing to do when the entry is already there', async () => {
    await writeConfigChange(change(await add('codex')));
    expect(await add('codex')).toMatchObject({ kind: 'unchanged', operation: { kind: 'set' } });
  });

  it('writes through a symlinked config (a dotfiles repository), leaving the link a link', async () => {
    if (process.platform === 'win32') return;
    const real = path.join(home, 'dotfiles', 'gemini-settings.json');
    write(real, GEMINI);
    fs.mkdirSync(path.join(home, '.gemini'));
    fs.symlinkSync(real, path.join(home, '.gemini', 'settings.json'));
    const planned = change(await add('gemini'));
    // What the consent names: the file the link leads to.
    expect(planned.realFile).toBe(fs.realpathSync(real));
    const written = await writeConfigChange(planned);
    expect(written.file).toBe(fs.realpathSync(real));
    expect(fs.lstatSync(path.join(home, '.gemini', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(parseJsonc(fs.readFileSync(real, 'utf8')).mcpServers.redline).toBeDefined();
    expect(path.dirname(written.backup!)).toBe(path.dirname(fs.realpathSync(real)));
    expect(fs.readFileSync(written.backup!, 'utf8')).toBe(GEMINI);
  });
});

describe('what is never written', () => {
  it('a symlinked config whose link was pointed elsewhere after the consent: refused, neither file touched', async () => {
    if (process.platform === 'win32') return;
    const agreed = path.join(home, 'dotfiles', 'codex.toml');
    const other = path.join(home, 'Cargo.toml');
    write(agreed, CODEX);
    write(other, '[package]\nname = "mine"\n');
    const link = path.join(home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(link));
    fs.symlinkSync(agreed, link);
    const planned = change(await add('codex'));
    expect(planned.realFile).toBe(fs.realpathSync(agreed));
    fs.rmSync(link);
    fs.symlinkSync(other, link);
    await expect(writeConfigChange(planned)).rejects.toThrow(
      `now leads to ${fs.realpathSync(other)}, not to ${fs.realpathSync(agreed)} as when you agreed; nothing was written`,
    );
    expect(fs.readFileSync(other, 'utf8')).toBe('[package]\nname = "mine"\n');
    expect(fs.readFileSync(agreed, 'utf8')).toBe(CODEX);
  });

  it('a file that does not parse: the plan says what is wrong and that nothing was written; the file is untouched', async () => {
    const file = path.join(home, '.cursor', 'mcp.json');
    write(file, '{ "mcpServers": { "github": {} }\n');
    const plan = await add('cursor');
    expect(plan.kind).toBe('invalid');
    expect(plan.kind === 'invalid' && plan.message).toMatch(
      /^~[/\\]\.cursor[/\\]mcp\.json is not valid JSON \(line 2, column 1: close brace expected\); nothing was written\./,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "github": {} }\n');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['mcp.json']);
  });

  it("a file the user changed after the preview: refused, with the user's change kept and no backup", async () => {
    const file = path.join(home, '.codex', 'config.toml');
    write(file, CODEX);
    const planned = change(await add('codex'));
    fs.appendFileSync(file, '\n[profiles.new]\nmodel = "o3"\n');
    await expect(writeConfigChange(planned)).rejects.toThrow(ConfigFileError);
    await expect(writeConfigChange(planned)).rejects.toThrow(/changed after Redline read it; nothing was written/);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${CODEX}\n[profiles.new]\nmodel = "o3"\n`);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['config.toml']);
  });

  it('a directory where the file should be', async () => {
    fs.mkdirSync(path.join(home, '.gemini', 'settings.json'), { recursive: true });
    const plan = await add('gemini');
    expect(plan.kind === 'invalid' && plan.message).toMatch(
      /could not be read \(it is a directory\); nothing was written/,
    );
  });
});

describe('Remove Redline from…', () => {
  it.each(['cursor', 'gemini', 'codex'] as const)('%s: takes out only the entry, with a backup', async (assistant) => {
    const file = target(assistant).file;
    const original = { cursor: CURSOR, gemini: GEMINI, codex: CODEX }[assistant];
    write(file, original);
    await writeConfigChange(change(await add(assistant)), new Date(2025, 0, 1));
    const written = await writeConfigChange(
      change(await planConfigChange(target(assistant), { kind: 'remove' })),
      new Date(2025, 0, 2),
    );
    const text = fs.readFileSync(file, 'utf8');
    if (assistant === 'codex') expect(parseToml(text)).toEqual(parseToml(original));
    else expect(parseJsonc(text)).toEqual(parseJsonc(original));
    expectLinesKept(text, original);
    expect(written.backup).toMatch(/\.redline-backup-20250102-000000$/);
    expect(await planConfigChange(target(assistant), { kind: 'remove' })).toMatchObject({
      kind: 'unchanged',
      operation: { kind: 'remove' },
    });
  });
});

describe('configTarget', () => {
  it('names the user-level files, as the user knows them', () => {
    expect(target('cursor')).toMatchObject({
      file: path.join(home, '.cursor', 'mcp.json'),
      format: 'json',
      entryPath: ['mcpServers', 'redline'],
    });
    expect(target('codex')).toMatchObject({
      file: path.join(home, '.codex', 'config.toml'),
      format: 'toml',
      entryPath: ['mcp_servers', 'redline'],
    });
    expect(target('gemini')).toMatchObject({
      file: path.join(home, '.gemini', 'settings.json'),
      entryPath: ['mcpServers', 'redline'],
    });
    expect(target('vscode')).toMatchObject({ entryPath: ['servers', 'redline'] });
    expect(target('cursor').displayPath).toBe(path.join('~', '.cursor', 'mcp.json'));
  });

  it('uses Windows paths on Windows', () => {
    const cursor = configTarget('cursor', { home: 'C:\\Users\\Jane', platform: 'win32' });
    expect(cursor).toMatchObject({ file: 'C:\\Users\\Jane\\.cursor\\mcp.json', displayPath: '~\\.cursor\\mcp.json' });
  });

  it("finds VS Code's user folder two levels above the global storage, and has no VS Code target without it", () => {
    expect(vscodeUserDirectory(path.join('/home/jane/.config/Code/User/globalStorage', 'redline-dev.redline'))).toBe(
      path.join('/home/jane/.config/Code/User'),
    );
    expect(configTarget('vscode', { home })).toBeUndefined();
  });

  it('adds ELECTRON_RUN_AS_NODE to the entry when the editor is the runtime', () => {
    expect(
      serverEntry('cursor', '/s.js', { command: '/usr/share/code/code', env: { ELECTRON_RUN_AS_NODE: '1' } }),
    ).toEqual({
      command: '/usr/share/code/code',
      args: ['/s.js'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(serverEntry('vscode', '/s.js', { command: 'node', env: {} })).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['/s.js'],
    });
  });
});
