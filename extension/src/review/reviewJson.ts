// A stored review's JSON, written without holding the host's thread: JSON.stringify escapes a
// 10 MiB review in one stretch of 40–85 ms (the longest the host was held during a 10 MiB
// present-review in a real window). The markdown is escaped a slice per task instead, never
// splitting a surrogate pair, so the file's text is exactly JSON.stringify's.

import { setImmediate as nextTask } from 'timers/promises';
import type { StoredCurrent, StoredReview } from './storedState';

/** About a millisecond of escaping. */
const SLICE_CHARS = 256 * 1024;

/** `JSON.stringify(review)`, the same text. */
export function reviewJson(review: StoredReview): Promise<string> {
  return withMarkdown(review.markdown, (markdown) => ({ ...review, markdown }));
}

/** `JSON.stringify(current)`, the same text. */
export function currentJson(current: StoredCurrent): Promise<string> {
  const review = current.current;
  if (!review) return Promise.resolve(JSON.stringify(current));
  return withMarkdown(review.markdown, (markdown) => ({ ...current, current: { ...review, markdown } }));
}

/** The JSON of `holding(markdown)`, with the markdown escaped a slice at a time. */
async function withMarkdown(markdown: string, holding: (markdown: string) => object): Promise<string> {
  if (markdown.length <= SLICE_CHARS) return JSON.stringify(holding(markdown));
  // A placeholder that no other field holds by chance, swapped for the escaped markdown.
  const placeholder = `redline-markdown-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const json = JSON.stringify(holding(placeholder));
  const escaped = await escapeInSlices(markdown);
  const at = json.indexOf(`"${placeholder}"`);
  return json.slice(0, at) + escaped + json.slice(at + placeholder.length + 2);
}

/** JSON.stringify(text), a slice per task. */
async function escapeInSlices(text: string): Promise<string> {
  const parts: string[] = [];
  for (let at = 0; at < text.length; ) {
    if (at > 0) await nextTask();
    let end = Math.min(at + SLICE_CHARS, text.length);
    // A high surrogate stays with what follows it: cut, the pair would be written as two escapes.
    if (isHighSurrogate(text.charCodeAt(end - 1))) end++;
    parts.push(JSON.stringify(text.slice(at, end)).slice(1, -1));
    at = end;
  }
  return `"${parts.join('')}"`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
