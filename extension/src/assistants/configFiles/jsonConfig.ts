// Adds, replaces or removes Redline's entry in a JSON config (Cursor's and VS Code's mcp.json,
// Gemini's settings.json) as a text edit of the entry's own lines (jsonTextEdits.ts), so the
// user's other entries, comments, indentation and line endings stay as they were.

// The ESM build: the package's UMD entry hides its requires from esbuild, which then leaves them
// unbundled and the extension fails to load them at run time.
import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser/lib/esm/main.js';
import { describeKind, sameValue, splitBom, type ConfigEditResult, type EntryEdit } from './configEdit';
import { insertProperty, layoutOf, removeProperty, render, replaceValue } from './jsonTextEdits';

/** Comments and trailing commas, as VS Code's own JSON files have them. */
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** Who reads the file, when that reader is stricter than VS Code. */
export interface JsonReader {
  /** Its name for a message: "Gemini CLI". */
  readonly name: string;
  /** It stops at a trailing comma (Gemini CLI 0.61: "Expected double-quoted property name"). */
  readonly rejectsTrailingCommas: boolean;
}

export interface JsonEntryEdit extends EntryEdit {
  /** Who reads the file, when it is stricter than VS Code. */
  readonly reader?: JsonReader;
}

/** `text` undefined: the file does not exist yet. The edit itself never adds a trailing comma. */
export function editJsonConfig(
  text: string | undefined,
  { entryPath, operation, reader }: JsonEntryEdit,
): ConfigEditResult {
  const [serversKey, name] = entryPath;
  const { bom, body } = splitBom(text ?? '');
  const parsed = parseJson(body);
  if ('reason' in parsed) return { kind: 'invalid', reason: parsed.reason };
  const { root } = parsed;
  if (root && root.type !== 'object')
    return { kind: 'invalid', reason: `holds ${describeKind(getNodeValue(root))} at its top level, not an object` };
  const servers = root && findNodeAtLocation(root, [serversKey]);
  if (servers && servers.type !== 'object') {
    return { kind: 'invalid', reason: `has "${serversKey}" as ${describeKind(getNodeValue(servers))}, not an object` };
  }

  const existing = servers && findNodeAtLocation(servers, [name]);
  const wanted = operation.kind === 'set' ? operation.entry : undefined;
  if (existing ? sameValue(getNodeValue(existing), wanted) : wanted === undefined) return { kind: 'unchanged' };

  let edited: string;
  if (wanted === undefined) edited = removeProperty(body, servers!, existing!.parent!);
  else if (existing) edited = replaceValue(body, existing, wanted);
  else if (servers) edited = insertProperty(body, servers, { key: name, value: wanted });
  else if (root) edited = insertProperty(body, root, { key: serversKey, value: { [name]: wanted } });
  else {
    // Nothing but whitespace: the file is made whole, ending the way editors end JSON files.
    const layout = layoutOf(body);
    edited = render({ [serversKey]: { [name]: wanted } }, '', layout) + layout.eol;
  }

  // The edit is checked by reading it back: the whole document must be what it was, but for the entry.
  const after = parseJson(edited);
  const document = (root ? getNodeValue(root) : {}) as Record<string, unknown>;
  const entries: Record<string, unknown> = {
    ...(document[serversKey] as Record<string, unknown> | undefined),
    [name]: wanted,
  };
  if (wanted === undefined) delete entries[name];
  const expected = { ...document, [serversKey]: entries };
  if ('reason' in after || !sameValue(after.root ? getNodeValue(after.root) : {}, expected)) {
    throw new Error(`Editing the JSON did not give the expected result:\n${edited}`);
  }
  if (reader?.rejectsTrailingCommas && operation.kind === 'set' && trailingCommas(edited).length > 0) {
    // The reader could not load the file, so the entry would never start. (The edit consumes a
    // trailing comma after the servers' last entry, and adds none; a removal leaves the file no worse.)
    const where = new Set(trailingCommas(body).map(({ line, column }) => `line ${line}, column ${column}`));
    return {
      kind: 'invalid',
      reason: `has a trailing comma (before ${[...where].join('; ')}), which ${reader.name} cannot read: remove it`,
    };
  }
  return { kind: 'changed', text: bom + edited };
}

function parseJson(body: string): { readonly root: Node | undefined } | { readonly reason: string } {
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, PARSE_OPTIONS);
  const error = errors[0];
  if (!error) return { root };
  const { line, column } = position(body, error.offset);
  return { reason: `is not valid JSON (line ${line}, column ${column}: ${describeError(error)})` };
}

/** Where each trailing comma ends (the `}` or `]` after it), for a file that parses with them allowed. */
function trailingCommas(body: string): Array<{ line: number; column: number }> {
  const errors: ParseError[] = [];
  parseTree(body, errors, { ...PARSE_OPTIONS, allowTrailingComma: false });
  return errors.map((error) => position(body, error.offset));
}

/** jsonc-parser's codes, as words: "CommaExpected" → "comma expected". */
function describeError(error: ParseError): string {
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

function position(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}
