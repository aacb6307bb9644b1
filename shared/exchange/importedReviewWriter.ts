// The markdown of an imported review, written so that Redline's renderer finds each result as a
// finding: a list item that starts with the severity label and then the result's `file:line-end`,
// the first reference in the block, which the finding is anchored at. The message follows, indented
// into the item so that nothing it contains (a heading, a fence, a list) can end the item early.

import { formatSize } from '../byteSize';
import { splitLabel, titleOf } from '../findingLabel';
import type { FindingSeverity } from '../findingTerms';
import { parseLinkTarget } from '../links';
import { SarifImportError } from './sarifImportError';
import type { ResultPlace } from './sarifPlaces';

export interface WrittenItem {
  /** 1-based line of the item in the markdown. */
  readonly line: number;
  /** Its title as the renderer will read it, when the item is a finding (its reference is valid). */
  readonly title?: string;
}

export class ImportedReviewWriter {
  private readonly lines: string[] = [];
  private bytes = 0;

  constructor(
    title: string,
    private readonly maxBytes: number,
  ) {
    this.push(`# ${escapeInline(title)}`, '');
  }

  heading(level: 2 | 3, text: string, description?: string): void {
    const about =
      description === undefined || description.trim() === '' ? '' : ` — ${escapeInline(oneLine(description))}`;
    this.push(`${'#'.repeat(level)} ${escapeInline(oneLine(text))}${about}`, '');
  }

  /** A result as a list item; with a place whose reference the link grammar reads back, a finding. */
  item(options: {
    label: FindingSeverity | null;
    place?: ResultPlace;
    message: string;
    fromRedline: boolean;
    elsewhere?: string;
  }): WrittenItem {
    const line = this.lines.length + 1;
    const { first, rest } = splitMessage(options.message, options.fromRedline);
    const reference = options.place === undefined ? undefined : referenceOf(options.place);
    const where =
      reference !== undefined
        ? reference
        : options.place !== undefined
          ? `${escapeInline(options.place.file)} (line ${options.place.line})`
          : options.elsewhere !== undefined
            ? `(in ${escapeInline(oneLine(options.elsewhere))})`
            : '(no location)';
    const label = options.label === null ? '' : `**${options.label}**: `;
    const head = `${label}${where}${first === '' ? '' : ` ${first}`}`;
    this.push(`- ${head}`, ...rest.map((text) => (text === '' ? '' : `  ${text}`)), '');
    if (reference === undefined) return { line };
    // As the renderer reads it (shared/findingLabel.ts).
    return { line, title: titleOf(`${where} ${first}`) };
  }

  /** Notes on what was left out, as a quote at the end. */
  notes(notes: ReadonlyArray<string | undefined>): void {
    for (const note of notes) if (note !== undefined) this.push(`> ${note}`, '');
  }

  markdown(): string {
    return `${this.lines.join('\n').replace(/\n+$/, '')}\n`;
  }

  private push(...lines: string[]): void {
    for (const line of lines) this.bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (this.bytes > this.maxBytes) {
      throw new SarifImportError(
        `The review made from this SARIF log would be more than ${formatSize(this.maxBytes)}, the most a review may be. Open a smaller log: filter it to fewer results with the tool that wrote it.`,
      );
    }
    this.lines.push(...lines);
  }
}

/**
 * `src/a.ts:12` or `src/a.ts:12-14` in a code span, when the link grammar reads it back as exactly
 * that place; a path with spaces, which a code span cannot hold as a reference, as a link to it.
 */
function referenceOf(place: ResultPlace): string | undefined {
  const text =
    place.endLine > place.line ? `${place.file}:${place.line}-${place.endLine}` : `${place.file}:${place.line}`;
  const spaced = /\s/.test(text);
  const target = spaced
    ? encodeURI(text).replace(/[#?()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    : text;
  const parsed = parseLinkTarget(target);
  if (
    parsed?.kind !== 'file' ||
    parsed.path !== place.file ||
    parsed.line !== place.line ||
    (parsed.endLine ?? parsed.line) !== place.endLine
  )
    return undefined;
  return spaced ? `[${escapeInline(text)}](<${target}>)` : `\`${text}\``;
}

/**
 * The message's first line (after the reference, on the item's line) and the rest. From Redline's
 * own export the first line is the finding's as written, even when empty (its title is made of it):
 * its list marker and label go, since the item has them already. Another tool's message starts at
 * its first line with words.
 */
function splitMessage(message: string, fromRedline: boolean): { first: string; rest: string[] } {
  const normalized = message.replace(/\r\n?/g, '\n').trimEnd();
  const lines = (fromRedline ? normalized : normalized.replace(/^\s*\n/, '')).split('\n');
  const first = fromRedline ? splitLabel(lines[0]).rest : lines[0];
  return { first: first.trim(), rest: lines.slice(1).map((line) => line.trimEnd()) };
}

/** Text from the log, on one line of markdown, with nothing in it that makes a link, a tag or emphasis. */
function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, '\\$&');
}

const oneLine = (text: string): string => text.slice(0, 1200).replace(/\s+/g, ' ').trim().slice(0, 300);
