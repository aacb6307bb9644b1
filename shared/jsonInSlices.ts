// JSON.stringify for a value that holds a string of megabytes (a review's markdown), done a slice
// per task, since escaping it at once would hold the extension host's thread, which is every
// extension's. The text is exactly JSON.stringify's, in parts: a slice never splits a surrogate
// pair, which JSON.stringify would otherwise write as two escapes.

import { yieldThread } from './threadYield';

/** Strings longer than this are escaped a slice at a time; a slice is this long, a short task. */
export const LARGE_STRING_CHARS = 256 * 1024;

/** JSON.stringify(value), as parts to join or write in order. */
export async function jsonInSlices(value: unknown): Promise<string[]> {
  // Most values hold no large string: one plain JSON.stringify, without a replacer called per field.
  if (!holdsLargeString(value)) return [JSON.stringify(value)];
  const large: string[] = [];
  // Stands in for each large string until it is escaped; random, so that no other text holds it.
  const token = `redline-large-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const json = JSON.stringify(value, (_key, field: unknown) =>
    typeof field === 'string' && field.length > LARGE_STRING_CHARS ? `${token}:${large.push(field) - 1}` : field,
  );
  if (large.length === 0) return [json];
  if (json.split(token).length - 1 !== large.length) return [JSON.stringify(value)];
  const parts: string[] = [];
  let at = 0;
  for (const [index, text] of large.entries()) {
    const placeholder = `"${token}:${index}"`;
    const found = json.indexOf(placeholder, at);
    parts.push(json.slice(at, found));
    await pushEscaped(text, parts);
    at = found + placeholder.length;
  }
  parts.push(json.slice(at));
  return parts;
}

/** True when `value` holds, a few levels down, a string worth escaping in slices. */
export function holdsLargeString(value: unknown, depth = 4): boolean {
  if (typeof value === 'string') return value.length > LARGE_STRING_CHARS;
  if (depth === 0 || typeof value !== 'object' || value === null) return false;
  // Long lists (findings, sections) hold short strings: not worth walking.
  const fields = Array.isArray(value) ? value : Object.values(value);
  return fields.length <= 64 && fields.some((field) => holdsLargeString(field, depth - 1));
}

/** JSON.stringify(text), quotes included, a slice per task. */
async function pushEscaped(text: string, parts: string[]): Promise<void> {
  parts.push('"');
  for (let at = 0; at < text.length;) {
    if (at > 0) await yieldThread();
    let end = Math.min(at + LARGE_STRING_CHARS, text.length);
    if (isHighSurrogate(text.charCodeAt(end - 1))) end++;
    parts.push(JSON.stringify(text.slice(at, end)).slice(1, -1));
    at = end;
  }
  parts.push('"');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
