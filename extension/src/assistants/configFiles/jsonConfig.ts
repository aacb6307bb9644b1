// Adds, replaces or removes Redline's entry in a JSON config (Cursor's and VS Code's mcp.json,
// Gemini's settings.json) as a text edit of the entry's own lines (jsonTextEdits.ts), so the
// user's other entries, comments, indentation and line endings stay as they were.

// The ESM build: the package's UMD entry hides its requires from esbuild, which then leaves them
// unbundled and the extension fails to load them at run time.
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { describeKind, sameValue, splitBom, type ConfigEditResult, type ConfigOperation, type EntryPath } from './configEdit';
import { insertProperty, layoutOf, removeProperty, render, replaceValue } from './jsonTextEdits';

/** Comments and trailing commas are accepted, as VS Code and Gemini CLI accept them in these files. */
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** `text` undefined: the file does not exist yet. */
export function editJsonConfig(text: string | undefined, entryPath: EntryPath, operation: ConfigOperation): ConfigEditResult {
  const [serversKey, name] = entryPath;
  const { bom, body } = splitBom(text ?? '');
  const parsed = parseJson(body);
  if ('reason' in parsed) return { kind: 'invalid', reason: parsed.reason };
  const { root } = parsed;
  if (root && root.type !== 'object') return { kind: 'invalid', reason: `holds ${describeKind(getNodeValue(root))} at its top level, not an object` };
  const servers = root && findNodeAtLocation(root, [serversKey]);
  if (servers && servers.type !== 'object') {
    return { kind: 'invalid', reason: `has "${serversKey}" as ${describeKind(getNodeValue(servers))}, not an object` };
  }

  const existing = servers && findNodeAtLocation(servers, [name]);
  const wanted = operation.kind === 'set' ? operation.entry : undefined;
  if (existing ? sameValue(getNodeValue(existing), wanted) : wanted === undefined) return { kind: 'unchanged' };

  const layout = layoutOf(body);
  let edited: string;
  if (wanted === undefined) edited = removeProperty(body, servers!, existing!.parent!);
  else if (existing) edited = replaceValue(body, existing, wanted, layout);
  else if (servers) edited = insertProperty(body, servers, name, wanted, layout);
  else if (root) edited = insertProperty(body, root, serversKey, { [name]: wanted }, layout);
  // Nothing but whitespace: the file is made whole, ending the way editors end JSON files.
  else edited = render({ [serversKey]: { [name]: wanted } }, '', layout) + layout.eol;

  // The edit is checked by reading it back: the whole document must be what it was, but for the entry.
  const after = parseJson(edited);
  const document = (root ? getNodeValue(root) : {}) as Record<string, unknown>;
  const entries: Record<string, unknown> = { ...(document[serversKey] as Record<string, unknown> | undefined), [name]: wanted };
  if (wanted === undefined) delete entries[name];
  const expected = { ...document, [serversKey]: entries };
  if ('reason' in after || !sameValue(after.root ? getNodeValue(after.root) : {}, expected)) {
    throw new Error(`Editing the JSON did not give the expected result:\n${edited}`);
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

/** jsonc-parser's codes, as words: "CommaExpected" → "comma expected". */
function describeError(error: ParseError): string {
  return printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function position(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}
