// Redline's `[mcp_servers.redline]` table in Codex's config.toml: added, replaced or removed with
// the rest of the file as it was (other tables, comments, alignment, tabs, CRLF, a byte-order mark).

import { editTomlConfig } from '../../extension/src/assistants/configFiles/tomlConfig';
import type { ConfigEditResult, ServerEntry } from '../../extension/src/assistants/configFiles/configEdit';

// smol-toml's types are ES-module only to TypeScript's Node16 mode, so this CommonJS file imports it dynamically.
let parse: (typeof import('smol-toml', { with: { 'resolution-mode': 'import' } }))['parse'];
beforeAll(async () => {
  ({ parse } = await import('smol-toml'));
});

const ENTRY: ServerEntry = { command: 'node', args: ['/home/jane/.redline/mcp-server.js'] };
const PATH = ['mcp_servers', 'redline'] as const;

const set = (text: string | undefined, entry: ServerEntry = ENTRY) =>
  editTomlConfig(text, { entryPath: PATH, operation: { kind: 'set', entry } });
const remove = (text: string | undefined) => editTomlConfig(text, { entryPath: PATH, operation: { kind: 'remove' } });

function changed(result: ConfigEditResult): string {
  if (result.kind !== 'changed') throw new Error(`expected a change, got ${JSON.stringify(result)}`);
  return result.text;
}

const CODEX = `# ~/.codex/config.toml
model          = "gpt-5"      # aligned by hand
approval_policy = 'on-request'

[mcp_servers.github]
command = "npx"\t# a tab before this comment
args    = ["-y", "@modelcontextprotocol/server-github"]
env     = { GITHUB_TOKEN = "ghp_x" }   # inline env

[mcp_servers.fs]   # header comment
command = "npx"
args = [
  "-y",   # the flag
  "server-filesystem",
]

[profiles.fast]
model = "o4-mini"
`;

/** The file's lines that are not Redline's: each must survive an edit exactly. */
const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('adding the table', () => {
  it('adds [mcp_servers.redline] after the other servers, leaving every other line byte for byte', () => {
    const text = changed(set(CODEX));
    expect(parse(text)).toEqual({
      ...parse(CODEX),
      mcp_servers: { ...(parse(CODEX).mcp_servers as object), redline: ENTRY },
    });
    for (const line of linesOf(CODEX)) expect(text).toContain(line);
    expect(text).toContain('[mcp_servers.redline]\ncommand = "node"\nargs = ["/home/jane/.redline/mcp-server.js"]\n');
    expect(text.indexOf('[mcp_servers.redline]')).toBeLessThan(text.indexOf('[profiles.fast]'));
  });

  it.each([
    ['a missing file', undefined],
    ['an empty file', ''],
  ])('makes a file of just the table from %s', (_, text) => {
    expect(changed(set(text))).toBe(
      '[mcp_servers.redline]\ncommand = "node"\nargs = ["/home/jane/.redline/mcp-server.js"]\n',
    );
  });

  it('adds no empty [mcp_servers] header to a file without servers', () => {
    const text = changed(set('model = "o3" # mine\n'));
    expect(text).toBe(
      'model = "o3" # mine\n\n[mcp_servers.redline]\ncommand = "node"\nargs = ["/home/jane/.redline/mcp-server.js"]\n',
    );
  });

  it('keeps CRLF line endings, tabs and a byte-order mark', () => {
    const original = '\ufeff# top\r\nmodel = "o3"\t# tab\r\n\r\n[mcp_servers.other]\r\n\tcommand = "x"\r\n';
    const text = changed(set(original));
    expect(
      text.startsWith('\ufeff# top\r\nmodel = "o3"\t# tab\r\n\r\n[mcp_servers.other]\r\n\tcommand = "x"\r\n'),
    ).toBe(true);
    expect(text).toContain('[mcp_servers.redline]\r\ncommand = "node"\r\n');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(parse(text.slice(1))).toMatchObject({ mcp_servers: { redline: ENTRY } });
  });

  it("writes the runtime's environment as a table, and Windows paths intact", () => {
    const entry = {
      command: 'C:\\Program Files\\Microsoft VS Code\\Code.exe',
      args: ['C:\\Users\\Jane\\.redline\\mcp-server.js'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
    expect(parse(changed(set(CODEX, entry))).mcp_servers).toMatchObject({ redline: entry });
  });

  it('fills an inline mcp_servers table in place', () => {
    const text = changed(set('mcp_servers = { other = { command = "x" } } # inline\n'));
    expect(parse(text)).toEqual({ mcp_servers: { other: { command: 'x' }, redline: ENTRY } });
    expect(text).toContain('# inline');
  });
});

describe('replacing the table', () => {
  const withOld = `${CODEX}
[mcp_servers.redline]
command = "node"
args = ["/home/jane/.vscode/extensions/redline-dev.redline-0.1.0/dist/mcp-server.js"]
env_vars = ["REDLINE_IPC_PATH", "REDLINE_IPC_TOKEN"]

[mcp_servers.redline.env]
ELECTRON_RUN_AS_NODE = "1"
`;

  it('replaces the whole old table, its sub-table and forwarded variables included, and nothing else', () => {
    const text = changed(set(withOld));
    expect(parse(text)).toEqual({
      ...parse(CODEX),
      mcp_servers: { ...(parse(CODEX).mcp_servers as object), redline: ENTRY },
    });
    expect(text).not.toContain('REDLINE_IPC');
    expect(text).not.toContain('[mcp_servers.redline.env]');
    for (const line of linesOf(CODEX)) expect(text).toContain(line);
  });

  it('changes nothing when the table is already as wanted', () => {
    expect(set(changed(set(CODEX)))).toEqual({ kind: 'unchanged' });
  });
});

describe('removing the table', () => {
  it('takes out only the table', () => {
    const text = changed(remove(changed(set(CODEX))));
    expect(parse(text)).toEqual(parse(CODEX));
    for (const line of linesOf(CODEX)) expect(text).toContain(line);
  });

  it.each([
    ['a missing file', undefined],
    ['a file without servers', 'model = "o3"\n'],
    ['a file without the table', CODEX],
  ])('changes nothing in %s', (_, text) => {
    expect(remove(text)).toEqual({ kind: 'unchanged' });
  });
});

describe('a file that cannot be edited safely', () => {
  it.each([
    ['args = [1,\n', /is not valid TOML \(line 1, column \d+: .*unclosed array/],
    ['[a]\nx = 1\n[a]\n', /is not valid TOML \(line 3, column \d+: duplicate key\)/],
    ['mcp_servers = "none"\n', /has "mcp_servers" as a string, not a table/],
    ['[[mcp_servers]]\ncommand = "x"\n', /has "mcp_servers" as an array, not a table/],
  ])('refuses %j and says why', (text, reason) => {
    for (const result of [set(text), remove(text)]) {
      expect(result.kind).toBe('invalid');
      expect(result.kind === 'invalid' && result.reason).toMatch(reason);
    }
  });
});
