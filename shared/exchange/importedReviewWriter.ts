// The markdown of an imported review, written so that Redline's renderer finds each result as a
// finding: a list item that starts with the severity label and then the result's `file:line-end`
// (or `file` alone for a result about the whole file), the first reference in the block, which the
// finding is anchored at. The message follows, indented into the item so that nothing it contains
// (a heading, a fence, a list) can end the item early; a note on how its place was found, when it
// was not where the log said, ends the item. Every line is counted as it is written, so that each
// item's line in the markdown is known exactly.

import { formatSize } from '../byteSize';
import { splitLabel, titleOf } from '../findingLabel';
import type { FindingSeverity } from '../findingTerms';
import { parseLinkTarget } from '../links';
import { oneLine, visibleControls } from '../plainText';
import { SarifImportError } from './sarifImportError';

/** A result's place as the review writes it. */
export interface WrittenPlace {
  /** Forward slashes; relative to the folder the import started from, or absolute. */
  readonly file: string;
  /** Absent: the result is about the whole file. */
  readonly line?: number;
  readonly endLine?: number;
  /** Not found in the workspace: written as words, never as a reference that would only be broken. */
  readonly notFound?: boolean;
}

export interface WrittenItem {
  /** 1-based line of the item in the markdown. */
  readonly line: number;
  /** Its title as the renderer will read it, when the item is a finding (its reference is valid). */
  readonly title?: string;
}

/** A link the review may show: http(s), without what would end a link destination. */
const WEB_LINK = /^https?:\/\/[^\s<>()\\`]{1,2000}$/i;

export class ImportedReviewWriter {
  private readonly lines: string[] = [];
  private bytes = 0;

  constructor(
    title: string,
    private readonly maxBytes: number,
  ) {
    this.push(`# ${escapeInline(title)}`, '');
  }

  /** Bytes written so far. */
  get size(): number {
    return this.bytes;
  }

  /** A heading; a rule's, with its short description and its help link (an http(s) link, else none). */
  heading(level: 2 | 3, text: string, rule: { readonly description?: string; readonly helpUri?: string } = {}): void {
    const { description, helpUri } = rule;
    const about =
      description === undefined || description.trim() === '' ? '' : ` — ${escapeInline(oneLine(description, 300))}`;
    const help = helpUri !== undefined && WEB_LINK.test(helpUri) ? ` ([help](<${helpUri}>))` : '';
    this.push(`${'#'.repeat(level)} ${escapeInline(oneLine(text, 300))}${about}${help}`, '');
  }

  /** A result as a list item; with a place whose reference the link grammar reads back, a finding. */
  item(options: {
    label: FindingSeverity | null;
    place?: WrittenPlace;
    message: string;
    fromRedline: boolean;
    /** Where it is when that is no file: "in Acme.Billing.Charge", or why no file is named here. */
    elsewhere?: string;
    /** How its place was found, as markdown of one line: the item's last line. */
    placeNote?: string;
  }): WrittenItem {
    const line = this.lines.length + 1;
    const { first, rest } = splitMessage(options.message, options.fromRedline);
    const reference = options.place === undefined || options.place.notFound ? undefined : referenceOf(options.place);
    const where =
      reference !== undefined
        ? reference
        : options.place !== undefined
          ? plainPlace(options.place)
          : options.elsewhere !== undefined
            ? `(${escapeInline(oneLine(options.elsewhere, 300))})`
            : '(no location)';
    const label = options.label === null ? '' : `**${options.label}**: `;
    const head = `${label}${where}${first === '' ? '' : ` ${first}`}`;
    const note = options.placeNote === undefined ? [] : ['', `  ${oneLine(options.placeNote, 2000)}`];
    this.push(`- ${head}`, ...rest.map((text) => (text === '' ? '' : `  ${text}`)), ...note, '');
    if (reference === undefined) return { line };
    // As the renderer reads it (shared/findingLabel.ts).
    return { line, title: titleOf(`${where} ${first}`) };
  }

  /** Notes on what was left out and how places were found, as a quote at the end. */
  notes(notes: ReadonlyArray<string | undefined>): void {
    for (const note of notes) if (note !== undefined) this.push(`> ${oneLine(note, 4000)}`, '');
  }

  markdown(): string {
    return `${this.lines.join('\n').replace(/\n+$/, '')}\n`;
  }

  /** Adds lines, each split where it holds a line break, so that every item's recorded line stays true. */
  private push(...lines: string[]): void {
    const split = lines.flatMap((line) => line.split(/\r\n?|\n/));
    for (const line of split) this.bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (this.bytes > this.maxBytes) {
      throw new SarifImportError(
        `The review made from this SARIF log would be more than ${formatSize(this.maxBytes)}, the most a review may be. Open a smaller log: filter it to fewer results with the tool that wrote it.`,
      );
    }
    this.lines.push(...split);
  }
}

/**
 * `src/a.ts:12`, `src/a.ts:12-14` or `src/a.ts` (the whole file) in a code span, when the link
 * grammar reads it back as exactly that place; a root file without an extension (`gradlew`) as
 * `./gradlew`, which the grammar reads as a path; a path with spaces, which a code span cannot hold
 * as a reference, as a link to it.
 */
function referenceOf(place: WrittenPlace): string | undefined {
  for (const file of [place.file, `./${place.file}`]) {
    if (file !== place.file && (place.file.includes('/') || /^[A-Za-z]:/.test(place.file))) break;
    const written = writtenReference(file, place);
    if (written !== undefined) return written;
  }
  return undefined;
}

function writtenReference(file: string, place: WrittenPlace): string | undefined {
  const lines =
    place.line === undefined
      ? ''
      : place.endLine !== undefined && place.endLine > place.line
        ? `:${place.line}-${place.endLine}`
        : `:${place.line}`;
  const text = `${file}${lines}`;
  const spaced = /\s/.test(text);
  const target = spaced
    ? encodeURI(text).replace(/[#?()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    : text;
  const parsed = parseLinkTarget(target);
  if (
    parsed?.kind !== 'file' ||
    parsed.path !== file ||
    parsed.line !== place.line ||
    (parsed.endLine ?? parsed.line) !== (place.line === undefined ? undefined : (place.endLine ?? place.line))
  )
    return undefined;
  return spaced ? `[${escapeInline(text)}](<${target}>)` : `\`${text}\``;
}

/** A place the grammar cannot read as a reference, as words: its controls shown as escapes, so no line is split. */
function plainPlace(place: WrittenPlace): string {
  const file = escapeInline(visibleControls(place.file));
  return place.line === undefined ? `${file} (the whole file)` : `${file} (line ${place.line})`;
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
export function escapeInline(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, '\\$&');
}

/** `text` as a code span that no backtick in it can close. */
export function codeSpan(text: string): string {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  return longest > 0 || text.startsWith(' ') || text.endsWith(' ')
    ? `${fence} ${text} ${fence}`
    : `${fence}${text}${fence}`;
}
