// Adds, replaces or removes Redline's `[mcp_servers.redline]` table in Codex's config.toml with
// toml_edit (tomlEngine.ts), which rewrites only that table: the user's other tables, comments and
// alignment stay as they were. What toml_edit does not keep (the line endings, a byte-order mark)
// is put back here.

import { describeKind, lineEnding, sameValue, splitBom, type ConfigEditResult, type EntryEdit } from './configEdit';
import { tomlEngine } from './tomlEngine';

type Table = Record<string, unknown>;

/** `text` undefined: the file does not exist yet. */
export function editTomlConfig(text: string | undefined, { entryPath, operation }: EntryEdit): ConfigEditResult {
  const [serversKey, name] = entryPath;
  // Both keys go into a dotted path unquoted, so they must be bare TOML keys.
  if (!entryPath.every((key) => /^[A-Za-z0-9_-]+$/.test(key)))
    throw new Error(`Not a bare TOML key: ${entryPath.join('.')}`);
  const engine = tomlEngine();
  const { bom, body } = splitBom(text ?? '');

  const before = parseToml(body);
  if ('reason' in before) return { kind: 'invalid', reason: before.reason };
  const servers = before.document[serversKey];
  if (servers !== undefined && !isTable(servers)) {
    return { kind: 'invalid', reason: `has "${serversKey}" as ${describeKind(servers)}, not a table` };
  }
  const wanted = operation.kind === 'set' ? operation.entry : undefined;
  const existing = servers?.[name];
  if (existing === undefined ? wanted === undefined : sameValue(existing, wanted)) return { kind: 'unchanged' };

  let edited = engine.edit(body, entryPath.join('.'), wanted);
  // toml_edit adds an empty `[mcp_servers]` above a first `[mcp_servers.redline]`; TOML does not need it.
  if (servers === undefined)
    edited = edited.replace(new RegExp(`(^|\\n)\\[${serversKey}\\]\\n\\n(?=\\[${serversKey}\\.${name}\\]\\n)`), '$1');
  // toml_edit writes \n throughout; a file that used \r\n keeps \r\n.
  if (lineEnding(body) === '\r\n') edited = edited.replace(/\r?\n/g, '\r\n');

  // The edit is checked by reading it back: the whole document must be what it was, but for the entry.
  const after = parseToml(edited);
  const entries: Table = { ...servers, [name]: wanted };
  if (wanted === undefined) delete entries[name];
  const expected: Table = { ...before.document, [serversKey]: entries };
  if ('reason' in after || !sameValue(after.document, expected))
    throw new Error(`Editing the TOML did not give the expected result:\n${edited}`);
  return { kind: 'changed', text: bom + edited };
}

function parseToml(body: string): { readonly document: Table } | { readonly reason: string } {
  try {
    const document = tomlEngine().parse(body);
    return { document: isTable(document) ? document : {} };
  } catch (error) {
    return { reason: `is not valid TOML (${describeParseError(error)})` };
  }
}

/**
 * toml_edit's message is "TOML parse error at line 3, column 2", then the line with a caret, then
 * what is wrong: kept as "line 3, column 2: duplicate key".
 */
function describeParseError(error: unknown): string {
  const lines = String(error instanceof Error ? error.message : error)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const where = /line \d+, column \d+/.exec(lines[0] ?? '')?.[0];
  const what = lines[lines.length - 1];
  return where && what && lines.length > 1 ? `${where}: ${what}` : lines.join(' ');
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
