// Finding a finding's code again. Each finding remembers the lines it pointed at; after the file
// changed, those lines are looked for in its new text, and the match nearest to where the finding
// last was wins. Pure, so that it is tested without an editor.

import { countNewlines } from '../render/sections';

/** A finding remembers at most this many lines: enough to recognise them, little to store. */
export const REMEMBERED_LINES = 50;

export interface AnchorRange {
  /** 1-based, inclusive. */
  readonly line: number;
  readonly endLine: number;
}

/** Of a longer line only this much is remembered and compared (a minified bundle is one line). */
export const REMEMBERED_LINE_CHARS = 2000;

/** A line as it is remembered and compared: without trailing blanks, and no longer than REMEMBERED_LINE_CHARS. */
export function lineKey(line: string): string {
  return line.length > REMEMBERED_LINE_CHARS ? line.slice(0, REMEMBERED_LINE_CHARS) : line.trimEnd();
}

/** The lines a finding points at, as it remembers them; undefined past the end of the file. */
export function rememberLines(lines: readonly string[], range: AnchorRange): string[] | undefined {
  if (range.line > lines.length) return undefined;
  const end = Math.min(range.endLine, lines.length, range.line + REMEMBERED_LINES - 1);
  return lines.slice(range.line - 1, end).map(lineKey);
}

/**
 * Where the remembered lines are in `lines` now: where they were if they still are, else the
 * nearest place they occur, else undefined (the code changed). A range longer than what was
 * remembered keeps its length.
 */
export function relocate(
  lines: readonly string[],
  remembered: readonly string[],
  was: AnchorRange,
): AnchorRange | undefined {
  const span = was.endLine - was.line;
  const at = (start: number) => ({ line: start + 1, endLine: start + 1 + span });
  if (remembered.length === 0) return was;
  if (matchesAt(lines, remembered, was.line - 1)) return was;
  // Blank lines recognise nothing: a finding on them alone is found only where it was.
  if (remembered.every((line) => line.trim() === '')) return undefined;
  let best: number | undefined;
  for (
    let start = indexOfTrimmed(lines, remembered[0], 0);
    start !== -1;
    start = indexOfTrimmed(lines, remembered[0], start + 1)
  ) {
    if (!matchesAt(lines, remembered, start)) continue;
    if (best === undefined || Math.abs(start - (was.line - 1)) < Math.abs(best - (was.line - 1))) best = start;
  }
  return best === undefined ? undefined : at(best);
}

function matchesAt(lines: readonly string[], remembered: readonly string[], start: number): boolean {
  if (start < 0 || start + remembered.length > lines.length) return false;
  for (let i = 0; i < remembered.length; i++) if (lineKey(lines[start + i]) !== remembered[i]) return false;
  return true;
}

function indexOfTrimmed(lines: readonly string[], wanted: string, from: number): number {
  for (let i = from; i < lines.length; i++) if (lineKey(lines[i]) === wanted) return i;
  return -1;
}

/** One change of a VS Code change event, with 0-based lines and characters. */
export interface LineEdit {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
  readonly text: string;
}

/**
 * How an edit moves a range: one wholly above it shifts it by the lines it added or removed; one
 * below leaves it; one that touches its lines returns undefined (find them again by their text).
 */
export function shiftForEdit(range: AnchorRange, edit: LineEdit): AnchorRange | undefined {
  const first = range.line - 1;
  // Ending at the very start of the first line is still above it, if what comes before that line
  // afterwards still ends with a newline (otherwise the edit joins text onto the line).
  const endsAtLineStart = edit.endLine === first && edit.endCharacter === 0;
  const above =
    edit.endLine < first ||
    (endsAtLineStart && (edit.text.endsWith('\n') || (edit.text === '' && edit.startCharacter === 0)));
  if (above) {
    const delta = countNewlines(edit.text) - (edit.endLine - edit.startLine);
    return { line: range.line + delta, endLine: range.endLine + delta };
  }
  return edit.startLine > range.endLine - 1 ? range : undefined;
}
