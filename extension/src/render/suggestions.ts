// ```suggestion blocks, as on GitHub: the code a finding proposes in place of the lines it points
// at. The panel shows each as a diff against those lines as they are on disk, with "Apply…",
// which shows the change in VS Code's diff editor and writes nothing until the user says Apply.

import { diffArrays } from 'diff';
import { promises as fs } from 'fs';
import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

export const SUGGESTION_INFO = 'suggestion';
/** Suggestions past this many in one render are shown as plain code, without a diff. */
const MAX_SUGGESTIONS_PER_RENDER = 50;
/** Larger files are not read for a diff. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const { escapeHtml } = new MarkdownIt().utils;

/** What a suggestion fence renders with, set on its token once its finding is known. */
export interface SuggestionMeta {
  readonly findingId: string;
  readonly index: number;
  readonly target: string;
  /** The lines it replaces, as the editor has them unsaved, else as on disk, when rendered; undefined when they could not be read. */
  readonly original?: readonly string[];
}

export function isSuggestionFence(token: Token): boolean {
  return token.type === 'fence' && token.info.trim().split(/\s+/)[0] === SUGGESTION_INFO;
}

/** The replacement text of a suggestion fence, without its final newline. */
export function suggestionText(token: Token): string {
  return token.content.replace(/\n$/, '');
}

/**
 * Reads the lines each suggestion replaces, so that the render can show a diff. Bounded: a few
 * dozen suggestions a render, files of a few MiB; past that a suggestion shows without a diff.
 */
export async function attachOriginals(
  suggestions: ReadonlyArray<{
    token: Token;
    findingId: string;
    index: number;
    file: string;
    line: number;
    endLine: number;
    target: string;
  }>,
  /** Files open with unsaved changes, by path: the suggestion applies to that text, so the diff is against it. */
  unsaved: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  const files = new Map<string, Promise<string[] | undefined>>();
  for (const [n, suggestion] of suggestions.entries()) {
    let lines: string[] | undefined;
    if (n < MAX_SUGGESTIONS_PER_RENDER) {
      const open = unsaved.get(suggestion.file);
      if (!files.has(suggestion.file))
        files.set(
          suggestion.file,
          open !== undefined ? Promise.resolve(open.split(/\r\n|\r|\n/)) : readLines(suggestion.file),
        );
      lines = await files.get(suggestion.file);
    }
    const meta: SuggestionMeta = {
      findingId: suggestion.findingId,
      index: suggestion.index,
      target: suggestion.target,
      original: lines?.slice(suggestion.line - 1, suggestion.endLine),
    };
    suggestion.token.meta = { ...suggestion.token.meta, suggestion: meta };
  }
}

/** The suggestion as a diff with its Apply… button, or undefined for a fence that belongs to no finding. */
export function renderSuggestion(token: Token, attributes: string): string | undefined {
  const meta = token.meta?.suggestion as SuggestionMeta | undefined;
  if (!meta) return undefined;
  const proposed = suggestionText(token).split('\n');
  const lines = meta.original
    ? diffArrays([...meta.original], proposed).flatMap((part) =>
        part.value.map((line) =>
          part.added
            ? `<span class="redline-diff-add">+ ${escapeHtml(line)}</span>`
            : part.removed
              ? `<span class="redline-diff-del">- ${escapeHtml(line)}</span>`
              : `  ${escapeHtml(line)}`,
        ),
      )
    : proposed.map((line) => `<span class="redline-diff-add">+ ${escapeHtml(line)}</span>`);
  return (
    `<div class="redline-suggestion"${attributes}>` +
    `<div class="redline-suggestion-head">Suggested change to <code>${escapeHtml(meta.target)}</code>` +
    `<button type="button" class="redline-apply" data-apply-finding="${escapeHtml(meta.findingId)}" data-apply-index="${meta.index}" ` +
    `title="Show the change in a diff editor, then apply it if you agree">Apply…</button></div>` +
    `<pre><code>${lines.join('\n')}\n</code></pre></div>\n`
  );
}

async function readLines(file: string): Promise<string[] | undefined> {
  try {
    const stats = await fs.stat(file);
    if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return undefined;
    return (await fs.readFile(file, 'utf8')).split(/\r\n|\r|\n/);
  } catch {
    return undefined;
  }
}
