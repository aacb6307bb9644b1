// Redline's entry in a JSON config (Cursor's and VS Code's mcp.json, Gemini's settings.json):
// added, replaced or removed with every other byte of the file as it was: the other servers,
// comments, indentation (spaces or tabs), line endings and a byte-order mark.

import fc from 'fast-check';
import { parse } from 'jsonc-parser';
import { editJsonConfig } from '../../extension/src/assistants/configFiles/jsonConfig';
import type { ConfigEditResult, ServerEntry } from '../../extension/src/assistants/configFiles/configEdit';

const ENTRY: ServerEntry = { command: 'node', args: ['/home/jane/.redline/mcp-server.js'] };
const PATH = ['mcpServers', 'redline'] as const;

const set = (text: string | undefined, entry: ServerEntry = ENTRY) =>
  editJsonConfig(text, { entryPath: PATH, operation: { kind: 'set', entry } });
const remove = (text: string | undefined) => editJsonConfig(text, { entryPath: PATH, operation: { kind: 'remove' } });

function changed(result: ConfigEditResult): string {
  if (result.kind !== 'changed') throw new Error(`expected a change, got ${JSON.stringify(result)}`);
  return result.text;
}

const read = (text: string) => parse(text, [], { allowTrailingComma: true });

const CURSOR = `{
  // My servers. Keep this comment.
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"], // pinned
      "env": { "GITHUB_TOKEN": "ghp_x" }
    }
  },
  /* block comment */
  "other": true
}
`;

describe('adding the entry', () => {
  it('adds it beside the existing servers, keeping every other line as it was', () => {
    const text = changed(set(CURSOR));
    expect(read(text)).toEqual({ ...read(CURSOR), mcpServers: { ...read(CURSOR).mcpServers, redline: ENTRY } });
    for (const line of CURSOR.split('\n')) if (!line.includes('"env"')) expect(text).toContain(line);
    expect(text).toContain('// My servers. Keep this comment.');
    expect(text).toContain('/* block comment */');
    expect(text).toContain('], // pinned');
  });

  it('creates the servers object when the file has none, leaving a comment on the line it belongs to', () => {
    const text = changed(set('{\n  "theme": "dark" // mine\n}\n'));
    expect(read(text)).toEqual({ theme: 'dark', mcpServers: { redline: ENTRY } });
    expect(text).toContain('"theme": "dark", // mine\n  "mcpServers": {\n    "redline": {\n');
  });

  it('fills an empty servers object, on one line or with a comment inside', () => {
    expect(changed(set('{\n  "mcpServers": {}\n}\n'))).toBe(
      '{\n  "mcpServers": {\n    "redline": {\n      "command": "node",\n      "args": [\n        "/home/jane/.redline/mcp-server.js"\n      ]\n    }\n  }\n}\n',
    );
    const text = changed(set('{\n  "mcpServers": {\n    // none yet\n  }\n}\n'));
    expect(read(text)).toEqual({ mcpServers: { redline: ENTRY } });
    expect(text).toContain('// none yet');
  });

  it('keeps an object written on one line on one line', () => {
    const text = changed(set('{ "mcpServers": { "github": { "command": "npx" } } }'));
    expect(text).toBe(
      '{ "mcpServers": { "github": { "command": "npx" }, "redline": {"command":"node","args":["/home/jane/.redline/mcp-server.js"]} } }',
    );
  });

  it.each([
    ['a missing file', undefined],
    ['an empty file', ''],
    ['a file of blank lines', '\n\n'],
  ])('makes a whole file from %s, ending in a newline', (_, text) => {
    const result = changed(set(text));
    expect(read(result)).toEqual({ mcpServers: { redline: ENTRY } });
    expect(result.endsWith('}\n')).toBe(true);
  });

  it('indents with tabs in a file indented with tabs, and keeps CRLF line endings', () => {
    const original = '{\r\n\t"mcpServers": {\r\n\t\t"github": { "command": "npx" }\r\n\t}\r\n}\r\n';
    const text = changed(set(original));
    expect(text).toContain('\r\n\t\t"redline": {\r\n\t\t\t"command": "node",');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text.startsWith('{\r\n\t"mcpServers": {\r\n\t\t"github": { "command": "npx" },\r\n')).toBe(true);
  });

  it("indents with the file's own number of spaces", () => {
    const text = changed(set('{\n    "mcpServers": {}\n}\n'));
    expect(text).toContain('\n        "redline": {\n            "command": "node"');
  });

  it('keeps a byte-order mark', () => {
    const text = changed(set('\ufeff{ "a": 1 }'));
    expect(text.startsWith('\ufeff{')).toBe(true);
    expect(read(text.slice(1))).toEqual({ a: 1, mcpServers: { redline: ENTRY } });
  });

  it('keeps Windows paths intact', () => {
    const entry = {
      command: 'C:\\Program Files\\nodejs\\node.exe',
      args: ['C:\\Users\\Jane Doe\\.redline\\mcp-server.js'],
    };
    expect(read(changed(set('{}', entry))).mcpServers.redline).toEqual(entry);
  });

  it('accepts trailing commas and comments, as VS Code does', () => {
    expect(read(changed(set('{\n  "a": [1, 2,],\n  // c\n}\n'))).mcpServers.redline).toEqual(ENTRY);
  });
});

describe('trailing commas', () => {
  const GEMINI = { name: 'Gemini CLI', rejectsTrailingCommas: true };
  const strict = (text: string) => {
    const errors: unknown[] = [];
    const value = parse(text, errors as never, { allowTrailingComma: false });
    expect(errors).toEqual([]);
    return value;
  };

  it('never adds one: a trailing comma after the last property joins the new one instead', () => {
    const text = changed(
      set('{\n  "mcpServers": {\n    "github": { "command": "npx" }, // mine\n  },\n  "theme": "dark"\n}\n'),
    );
    expect(text).toBe(
      '{\n  "mcpServers": {\n    "github": { "command": "npx" }, // mine\n    "redline": {\n      "command": "node",\n      "args": [\n        "/home/jane/.redline/mcp-server.js"\n      ]\n    }\n  },\n  "theme": "dark"\n}\n',
    );
    expect(strict(text).mcpServers.redline).toEqual(ENTRY);
  });

  it('never adds one to an object written on one line', () => {
    expect(changed(set('{ "mcpServers": { "a": 1, } }'))).toBe(
      '{ "mcpServers": { "a": 1, "redline": {"command":"node","args":["/home/jane/.redline/mcp-server.js"]} } }',
    );
    expect(changed(set('{ "theme": "dark",}'))).toBe(
      '{ "theme": "dark", "mcpServers": {"redline":{"command":"node","args":["/home/jane/.redline/mcp-server.js"]}}}',
    );
  });

  it('refuses to add the entry to a file Gemini CLI cannot read, saying where the comma is', () => {
    const text = '{\n  "general": {\n    "vimMode": true,\n  },\n  "mcpServers": {},\n  "ui": [1,]\n}\n';
    expect(editJsonConfig(text, { entryPath: PATH, operation: { kind: 'set', entry: ENTRY }, reader: GEMINI })).toEqual(
      {
        kind: 'invalid',
        reason:
          'has a trailing comma (before line 4, column 3; line 6, column 12), which Gemini CLI cannot read: remove it',
      },
    );
  });

  it("writes a Gemini file whose only trailing comma is the one the entry's insertion consumes", () => {
    const text = changed(
      editJsonConfig('{\n  "mcpServers": {\n    "github": { "command": "npx" },\n  }\n}\n', {
        entryPath: PATH,
        operation: { kind: 'set', entry: ENTRY },
        reader: GEMINI,
      }),
    );
    expect(strict(text).mcpServers).toEqual({ github: { command: 'npx' }, redline: ENTRY });
  });

  it('still removes the entry from such a file, which leaves it no worse', () => {
    const text = '{\n  "general": { "vimMode": true, },\n  "mcpServers": { "redline": { "command": "node" } }\n}\n';
    expect(
      read(changed(editJsonConfig(text, { entryPath: PATH, operation: { kind: 'remove' }, reader: GEMINI })))
        .mcpServers,
    ).toEqual({});
  });
});

describe('replacing the entry', () => {
  const withOld = `{
  "mcpServers": {
    // Redline, set up by hand
    "redline": {
      "command": "node",
      "args": ["/home/jane/.vscode/extensions/redline-dev.redline-0.1.0/dist/mcp-server.js"],
      "env": { "REDLINE_IPC_PATH": "/run/user/1000/redline/a.sock", "REDLINE_IPC_TOKEN": "0123456789abcdef" }
    },
    "github": { "command": "npx" }
  }
}
`;

  it('replaces the whole old entry, its stale socket and token included, and nothing else', () => {
    const text = changed(set(withOld));
    expect(read(text)).toEqual({ mcpServers: { redline: ENTRY, github: { command: 'npx' } } });
    expect(text).not.toContain('REDLINE_IPC_TOKEN');
    expect(text).toContain('// Redline, set up by hand');
    expect(text).toContain('"github": { "command": "npx" }');
  });

  it('changes nothing when the entry is already as wanted, whatever its key order', () => {
    const text = `{ "mcpServers": { "redline": { "args": ["/home/jane/.redline/mcp-server.js"], "command": "node" } } }`;
    expect(set(text)).toEqual({ kind: 'unchanged' });
  });
});

describe('removing the entry', () => {
  it('removes only the entry, keeping the other servers, comments and the empty servers object', () => {
    const text = changed(remove(changed(set(CURSOR))));
    expect(read(text)).toEqual(read(CURSOR));
    expect(text).toContain('// My servers. Keep this comment.');
    expect(text).toContain('], // pinned');
    const onlyRedline = changed(
      remove('{\n  "mcpServers": {\n    "redline": { "command": "node" }\n  },\n  "x": 1\n}\n'),
    );
    expect(read(onlyRedline)).toEqual({ mcpServers: {}, x: 1 });
  });

  it("keeps the comments of the neighbours, and takes the comment on the entry's own line with it", () => {
    const original =
      '{\n  "mcpServers": {\n    "github": { "command": "npx" }, // work\n    // Redline, below\n    "redline": { "command": "node" } // ours\n  }\n}\n';
    expect(changed(remove(original))).toBe(
      '{\n  "mcpServers": {\n    "github": { "command": "npx" } // work\n    // Redline, below\n  }\n}\n',
    );
    const first =
      '{\r\n\t"mcpServers": {\r\n\t\t"redline": { "command": "node" },\r\n\t\t"github": { "command": "npx" } // work\r\n\t}\r\n}\r\n';
    expect(changed(remove(first))).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"github": { "command": "npx" } // work\r\n\t}\r\n}\r\n',
    );
  });

  it('takes the entry out of an object written on one line', () => {
    expect(changed(remove('{ "mcpServers": { "a": 1, "redline": {}, "b": 2 } }'))).toBe(
      '{ "mcpServers": { "a": 1, "b": 2 } }',
    );
  });

  it.each([
    ['a missing file', undefined],
    ['a file without the servers object', '{ "x": 1 }'],
    ['a file without the entry', CURSOR],
  ])('changes nothing in %s', (_, text) => {
    expect(remove(text)).toEqual({ kind: 'unchanged' });
  });
});

describe('a file that cannot be edited safely', () => {
  it.each([
    ['{ "mcpServers": { "github": { } }', /is not valid JSON \(line 1, column \d+: close brace expected\)/],
    ['{\n  "a": 1\n  "b": 2\n}', /is not valid JSON \(line 3, column 3: comma expected\)/],
    ['[1, 2]', /holds an array at its top level, not an object/],
    ['"text"', /holds a string at its top level/],
    ['{ "mcpServers": [] }', /has "mcpServers" as an array, not an object/],
    ['{ "mcpServers": "none" }', /has "mcpServers" as a string, not an object/],
  ])('refuses %j and says why', (text, reason) => {
    for (const result of [set(text), remove(text)]) {
      expect(result.kind).toBe('invalid');
      expect(result.kind === 'invalid' && result.reason).toMatch(reason);
    }
  });
});

describe("VS Code's mcp.json", () => {
  it('takes the entry under "servers"', () => {
    const entry = { type: 'stdio', ...ENTRY };
    const text = changed(
      editJsonConfig('{\n\t"servers": {},\n\t"inputs": []\n}\n', {
        entryPath: ['servers', 'redline'],
        operation: { kind: 'set', entry },
      }),
    );
    expect(read(text)).toEqual({ servers: { redline: entry }, inputs: [] });
  });
});

describe('any JSON file', () => {
  it('round-trips: adding then removing the entry gives back the same data, in any layout', () => {
    const servers = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 8 }).filter((key) => key !== 'redline' && key !== '__proto__'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    );
    const documents = fc.record({ mcpServers: servers }, { requiredKeys: [] }).chain((base) =>
      fc
        .dictionary(
          fc.string({ maxLength: 8 }).filter((key) => key !== 'mcpServers' && key !== '__proto__'),
          fc.jsonValue({ maxDepth: 2 }),
          { maxKeys: 4 },
        )
        .map((rest) => ({ ...rest, ...base })),
    );
    fc.assert(
      fc.property(
        documents,
        fc.constantFrom<string | number>(0, 2, 4, '\t'),
        fc.boolean(),
        (document, indent, crlf) => {
          let text = JSON.stringify(document, null, indent);
          if (crlf) text = text.replace(/\n/g, '\r\n');
          const original = read(text);
          const added = changed(set(text));
          expect(read(added)).toEqual({ ...original, mcpServers: { ...original.mcpServers, redline: ENTRY } });
          const removed = changed(remove(added));
          expect(read(removed)).toEqual({ ...original, mcpServers: { ...original.mcpServers } });
          if (text.includes('\r\n')) expect(removed.replace(/\r\n/g, '')).not.toContain('\n');
        },
      ),
    );
  });
});
