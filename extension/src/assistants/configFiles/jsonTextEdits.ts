// The text surgery behind jsonConfig.ts: insert, replace or delete one property of a parsed JSON
// object, touching only that property's own lines. jsonc-parser's `modify` is not used for this:
// it re-formats the whole line before an insertion (a neighbour's one-line `{ "command": "npx" }`
// comes out spread over three lines) and leaves that line's trailing comment after the new
// property, where it no longer describes what it did.

import type { Node } from 'jsonc-parser/lib/esm/main.js';

/** How the file is laid out, so that new lines look like their neighbours. */
export interface Layout {
  /** One level of indentation: a tab, or some spaces. */
  readonly unit: string;
  readonly eol: '\n' | '\r\n';
}

/** The layout of `text`: the indentation of its first indented line (two spaces when none), and its line ending. */
export function layoutOf(text: string): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { unit: '\t', eol };
  return { unit: indent ? ' '.repeat(Math.min(indent.length, 8)) : '  ', eol };
}

/** `value` as JSON whose lines after the first start at `indent`. */
export function render(value: unknown, indent: string, layout: Layout): string {
  return JSON.stringify(value, null, layout.unit).replace(/\n/g, layout.eol + indent);
}

/** `text` with `node` (a value, not a property) replaced by `value`, laid out from its property's line. */
export function replaceValue(text: string, node: Node, value: unknown): string {
  return (
    text.slice(0, node.offset) +
    render(value, lineIndent(text, node.offset), layoutOf(text)) +
    text.slice(node.offset + node.length)
  );
}

export interface NewProperty {
  readonly key: string;
  readonly value: unknown;
}

/** `text` with the property `key: value` added as the last of `object`'s properties, laid out as `text` is. */
export function insertProperty(text: string, object: Node, { key, value }: NewProperty): string {
  const layout = layoutOf(text);
  const properties = object.children ?? [];
  const last = properties[properties.length - 1];
  const close = object.offset + object.length - 1;
  if (!last) {
    // An empty object, perhaps with comments inside: the property goes first, on its own line.
    const indent = lineIndent(text, object.offset);
    const property = `${layout.eol}${indent}${layout.unit}${JSON.stringify(key)}: ${render(value, indent + layout.unit, layout)}`;
    const inner = text.slice(object.offset + 1, close);
    return inner.trim() === ''
      ? text.slice(0, object.offset + 1) + property + layout.eol + indent + text.slice(close)
      : text.slice(0, object.offset + 1) + property + text.slice(object.offset + 1);
  }
  const lastEnd = last.offset + last.length;
  if (!text.slice(object.offset, lastEnd).includes('\n')) {
    // An object written on one line stays on one line, its trailing comma (if any) joining the new property.
    const trailing = trailingCommaAfter(text, lastEnd, close);
    const joint = trailing === undefined ? lastEnd : trailing + 1;
    return `${text.slice(0, joint)}${trailing === undefined ? ',' : ''} ${JSON.stringify(key)}: ${JSON.stringify(value)}${text.slice(joint)}`;
  }
  const indent = lineIndent(text, properties[0].offset);
  const property = `${layout.eol}${indent}${JSON.stringify(key)}: ${render(value, indent, layout)}`;
  // A trailing comma after the last property is kept as the comma that joins the new one, so the
  // edit never leaves one behind (Gemini CLI cannot read them).
  const trailing = trailingCommaAfter(text, lastEnd, close);
  const afterComma = trailing === undefined ? lastEnd : trailing + 1;
  // The comma goes right after the last property; the new line after that line's own comment, if it has one.
  const rest = /^[ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/[ \t]*)(?=\r?\n)/.exec(text.slice(afterComma));
  const at = afterComma + (rest?.[0].length ?? 0);
  return `${text.slice(0, lastEnd)}${trailing === undefined ? ',' : ''}${text.slice(lastEnd, at)}${property}${text.slice(at)}`;
}

/** The offset of a comma between `from` and `close` (the object's `}`), past whitespace and comments. */
function trailingCommaAfter(text: string, from: number, close: number): number | undefined {
  try {
    const comma = commaAfter(text, from);
    return comma < close ? comma : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `text` without `property` (a node of type 'property' in `object`): its lines when it has them
 * to itself, with a comment on its last line, and the comma that joined it to its neighbours.
 */
export function removeProperty(text: string, object: Node, property: Node): string {
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  let start = property.offset;
  let end = property.offset + property.length;
  const next = siblings[index + 1];
  if (next) end = commaAfter(text, end) + 1;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (text.slice(lineStart, start).trim() === '') {
    const tail = /^[ \t]*(?:\/\/[^\r\n]*)?\r?\n/.exec(text.slice(end));
    if (tail) {
      start = lineStart;
      end += tail[0].length;
    }
  }
  // Sharing its line with others: the space after its comma goes too.
  if (next && start !== lineStart) end += /^[ \t]*/.exec(text.slice(end))?.[0].length ?? 0;
  let result = text.slice(0, start) + text.slice(end);
  const previous = siblings[index - 1];
  if (!next && previous) {
    // The last property goes: the comma before it would now be a trailing one.
    const comma = commaAfter(text, previous.offset + previous.length);
    if (comma < start) result = result.slice(0, comma) + result.slice(comma + 1);
  }
  return result;
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** The offset of the first comma at or after `from`, skipping whitespace and comments (the parser vouched for one). */
function commaAfter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.includes('*/', i + 2) ? text.indexOf('*/', i + 2) + 1 : text.length;
    else if (text[i] === ',') return i;
  }
  throw new Error('No comma between two JSON properties');
}
