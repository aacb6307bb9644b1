// What an edit of an assistant's config file is, in whichever format: add or replace Redline's
// entry, or remove it, computed from the file's text alone. The JSON and TOML editors implement
// it; the file I/O (configFile.ts) and the UI (configWriteFlow.ts) never look inside the text.

import { isDeepStrictEqual } from 'util';

/** The stdio server entry: `command`, `args` and, when there is any, `env`. */
export type ServerEntry = Readonly<Record<string, unknown>>;

export type ConfigOperation = { readonly kind: 'set'; readonly entry: ServerEntry } | { readonly kind: 'remove' };

export type ConfigEditResult =
  | { readonly kind: 'changed'; readonly text: string }
  /** The entry is already as wanted (or, for a removal, absent): nothing to write. */
  | { readonly kind: 'unchanged' }
  /** The file cannot be edited safely; `reason` completes "<file> …", e.g. "is not valid JSON (line 3, …)". */
  | { readonly kind: 'invalid'; readonly reason: string };

/** Where the entry sits: the servers' table, then the entry's own key. */
export type EntryPath = readonly [servers: string, name: string];

/** What to do to the entry, and where it is. */
export interface EntryEdit {
  readonly entryPath: EntryPath;
  readonly operation: ConfigOperation;
}

const BOM = '\ufeff';

/** A byte-order mark is kept as the file had it, but neither parser wants to see it. */
export function splitBom(text: string): { readonly bom: string; readonly body: string } {
  return text.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text };
}

/** The file's line ending, so that added lines match the lines around them. */
export function lineEnding(text: string): '\n' | '\r\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Equal as JSON values: key order and the parsers' object prototypes do not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(asJson(a), asJson(b));
}

function asJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value ?? null, (_key, item: unknown) => (typeof item === 'bigint' ? String(item) : item)),
  );
}

/** What a value is, for an error message: "an array", "a string"… */
export function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  const kind = typeof value;
  return kind === 'object' ? 'an object' : `a ${kind}`;
}
