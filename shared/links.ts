// The link grammar of a review: which strings are file references (`src/a.ts:12`, `src/a.ts#L10-L20`,
// `file:///…`), which are web links, and which are refused. Pure, so the extension and MCP server agree.

import { HOST_ENDINGS, WELL_KNOWN_NAMES } from './pathHints';

export interface FileReference {
  kind: 'file';
  path: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

/** An http: or https: link; every other scheme is refused. */
export interface ExternalLink {
  kind: 'external';
  url: string;
}

export type LinkTarget = FileReference | ExternalLink;

type Location = Pick<FileReference, 'line' | 'column' | 'endLine' | 'endColumn'>;

/** Longer targets are not references anyone writes; the cap also bounds the work per candidate. */
const MAX_TARGET_LENGTH = 4096;
/** Line and column numbers above 999,999,999 are noise, not positions. */
const MAX_NUMBER_DIGITS = 9;

// C0/C1 controls (NUL, tab, newline…), line separators and bidi overrides: a target containing one
// is hiding something (`java\tscript:`, Trojan Source), so it is refused rather than cleaned.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// Characters no real reference contains; they show up in code (`Map<K, V>`), globs and quotes.
const NOT_IN_PATHS = /[<>"|*?`]/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;
/** A drive as it starts a path, or a `file:` URI's path (`/C:/x`). */
const DRIVE_PREFIX = /^\/?[A-Za-z]:[\\/]/;
const ENCODED_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const LINE_SUFFIX = /:(\d+)(?::(\d+))?(?:-(\d+)(?::(\d+))?)?$/;
const LINE_FRAGMENT = /^[Ll](\d+)(?:[Cc](\d+))?(?:-[Ll]?(\d+)(?:[Cc](\d+))?)?$/;
const LOOKS_LIKE_LINE_FRAGMENT = /^[Ll]\d/;
const HAS_LETTER = /[A-Za-z\u00c0-\uffff]/;
const EXTENSION = /^[A-Za-z0-9_+-]+$/;
const DIGITS = /^\d+$/;

/** A markdown link destination or the whole content of an inline code span. undefined = not a link / refused. */
export function parseLinkTarget(target: string): LinkTarget | undefined {
  if (target.length > MAX_TARGET_LENGTH || UNSAFE_CHARACTER.test(target)) return undefined;
  const raw = target.trim();
  if (raw === '') return undefined;
  // markdown-it percent-encodes destinations, so the scheme is judged on the decoded form:
  // `java%09script:` and `%6Aavascript:` must not slip past as paths.
  const decoded = percentDecode(raw);
  if (UNSAFE_CHARACTER.test(decoded)) return undefined;
  if (WINDOWS_DRIVE.test(decoded)) return parseFileReference(raw);
  const scheme = SCHEME.exec(decoded)?.[1].toLowerCase();
  if (scheme === 'http' || scheme === 'https') return parseExternalLink(raw);
  if (scheme === 'file') return parseFileUri(raw);
  // Any other "scheme" may still be a bare name with a line (`a.ts:12`); once the line is taken off,
  // a colon left in the path (`javascript:…`, `foo:bar`, `a.ts:1:2:3`) means it is refused.
  return parseFileReference(raw);
}

/** References in prose text (bare, not inside a link): positions in `text`. Only file references with a line. */
export function findReferences(
  text: string,
): Array<{ start: number; end: number; text: string; reference: FileReference }> {
  const found: Array<{ start: number; end: number; text: string; reference: FileReference }> = [];
  // Every reference has a `:<digit>` or `#L<digit>`; jumping between those and looking at the word
  // around each one touches every character a bounded number of times, so the scan stays linear.
  const anchor = /:\d|#[Ll]\d/g;
  const wordEnd = /[\s"'`<>|*,;]/g;
  let scannedTo = 0;
  // test() and lastIndex rather than exec(): no match array to allocate per anchor.
  while (anchor.test(text)) {
    const at = anchor.lastIndex - (text[anchor.lastIndex - 2] === ':' ? 2 : 3);
    let start = at;
    let pathLike = false;
    while (start > scannedTo) {
      const code = text.charCodeAt(start - 1);
      if (isWordBoundary(code)) break;
      if (code === DOT || code === SLASH || code === BACKSLASH) pathLike = true;
      start--;
    }
    wordEnd.lastIndex = at + 1;
    const end = wordEnd.test(text) ? wordEnd.lastIndex - 1 : text.length;
    scannedTo = end;
    anchor.lastIndex = end;
    // Most anchors in prose are times and ports (`10:30`, `localhost:8080`): dismiss them before
    // doing any real parsing, since a long review has thousands.
    if (end - start > MAX_TARGET_LENGTH || !(pathLike || isWellKnownName(text, start, at))) continue;
    const hit = referenceInWord(text, start, end);
    if (hit) found.push(hit);
  }
  return found;
}

/** Canonical display form, e.g. "src/a.ts:10-20" — used in messages. */
export function formatReference(ref: FileReference): string {
  if (ref.line === undefined) return ref.path;
  let text = `${ref.path}:${ref.line}`;
  if (ref.column !== undefined) text += `:${ref.column}`;
  if (ref.endLine !== undefined && (ref.endLine !== ref.line || ref.endColumn !== undefined)) {
    text += `-${ref.endLine}`;
    if (ref.endColumn !== undefined) text += `:${ref.endColumn}`;
  }
  return text;
}

// ---- prose ----------------------------------------------------------------------------------

const DOT = 0x2e;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;

/** Keep in step with the `wordEnd` pattern in findReferences. */
function isWordBoundary(code: number): boolean {
  switch (code) {
    case 0x20:
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0xa0: // whitespace
    case 0x22:
    case 0x27:
    case 0x60: // " ' `
    case 0x3c:
    case 0x3e:
    case 0x7c:
    case 0x2a: // < > | *
    case 0x2c:
    case 0x3b: // , ; so that `a.ts:12,13` and `a.ts:3;b.ts:4` still give references
      return true;
    default:
      return code > 0x7f && /\s/.test(String.fromCharCode(code));
  }
}

function isLeadingWrapper(char: string): boolean {
  return char === '(' || char === '[' || char === '{';
}

function isTrailingPunctuation(char: string): boolean {
  return char === '.' || char === ':' || char === '!' || char === '?' || char === ')' || char === ']' || char === '}';
}

function isWellKnownName(text: string, start: number, end: number): boolean {
  while (start < end && isLeadingWrapper(text[start])) start++;
  return end - start <= 16 && WELL_KNOWN_NAMES.has(text.slice(start, end));
}

function referenceInWord(text: string, wordStart: number, wordEnd: number) {
  let start = wordStart;
  let end = wordEnd;
  while (start < end && isLeadingWrapper(text[start])) start++;
  while (end > start && isTrailingPunctuation(text[end - 1])) end--;
  let word = text.slice(start, end);
  // `see(src/a.ts:12)`: the reference starts after an opening bracket that is never closed.
  const paren = word.lastIndexOf('(');
  if (paren >= 0 && word.indexOf(')', paren) < 0) {
    start += paren + 1;
    word = word.slice(paren + 1);
  }
  const bracket = word.lastIndexOf('[');
  if (bracket >= 0 && word.indexOf(']', bracket) < 0) {
    start += bracket + 1;
    word = word.slice(bracket + 1);
  }
  if (word.includes('://') && !/^file:\/\//i.test(word)) return undefined; // inside a URL
  if (/[^/]@/.test(word)) return undefined; // an email or user@host; `node_modules/@types/…` is fine
  const reference = parseLinkTarget(word);
  if (reference?.kind !== 'file' || reference.line === undefined) return undefined;
  return { start, end, text: word, reference };
}

// ---- targets --------------------------------------------------------------------------------

function parseExternalLink(raw: string): ExternalLink | undefined {
  return /^https?:\/\/[^\s/?#]+/i.test(raw) && !/\s/.test(raw) ? { kind: 'external', url: raw } : undefined;
}

/** `file:///home/u/a.ts#L3`, `file:///C:/x/a.ts:3`: only local files (no host, or localhost). */
function parseFileUri(raw: string): FileReference | undefined {
  if (!/^file:\/\//i.test(raw)) return undefined;
  const rest = raw.slice('file://'.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return undefined;
  const host = rest.slice(0, slash).toLowerCase();
  if (host !== '' && host !== 'localhost') return undefined;
  const reference = parseFileReference(rest.slice(slash));
  if (reference === undefined) return undefined;
  // The URI form of a Windows path is `/C:/x`; the path is `C:/x`.
  const path = /^\/[A-Za-z]:[\\/]/.test(reference.path) ? reference.path.slice(1) : reference.path;
  return { ...reference, path };
}

/** A path with an optional `:line[:col][-line[:col]]` suffix or `#L…` fragment, maybe percent-encoded. */
function parseFileReference(raw: string): FileReference | undefined {
  const hashAt = raw.indexOf('#');
  let path = percentDecode(hashAt < 0 ? raw : raw.slice(0, hashAt));
  const fragment = hashAt < 0 ? '' : percentDecode(raw.slice(hashAt + 1));
  if (UNSAFE_CHARACTER.test(path) || UNSAFE_CHARACTER.test(fragment)) return undefined;

  let location: Location | undefined;
  if (LOOKS_LIKE_LINE_FRAGMENT.test(fragment)) {
    const parts = LINE_FRAGMENT.exec(fragment);
    if (!parts) return undefined;
    location = toLocation(parts);
    if (!location) return undefined;
  } else {
    // Any other fragment is a heading anchor (`docs/setup.md#install`): the file is the target.
    const parts = LINE_SUFFIX.exec(path);
    if (parts) {
      location = toLocation(parts);
      if (!location) return undefined; // `a.ts:0`, `a.ts:20-10`
      path = path.slice(0, parts.index);
    }
  }
  path = path.trim();
  if (!looksLikePath(path)) return undefined;
  return { kind: 'file', path, ...location };
}

function toLocation(parts: RegExpExecArray): Location | undefined {
  const [line, column, endLine, endColumn] = parts.slice(1, 5).map(toNumber);
  if (line === null || column === null || endLine === null || endColumn === null) return undefined;
  if (line === undefined) return undefined;
  if (endLine !== undefined && endLine < line) return undefined;
  if (endLine === line && column !== undefined && endColumn !== undefined && endColumn < column) return undefined;
  const location: Location = { line };
  if (column !== undefined) location.column = column;
  if (endLine !== undefined) location.endLine = endLine;
  if (endColumn !== undefined) location.endColumn = endColumn;
  return location;
}

/** undefined for an absent group, null for one that is not a 1-based number. */
function toNumber(digits: string | undefined): number | undefined | null {
  if (digits === undefined) return undefined;
  if (digits.length > MAX_NUMBER_DIGITS) return null;
  const value = Number(digits);
  return value >= 1 ? value : null;
}

/** Without a line a target must look like a path: a slash, a real extension, or a well-known name. */
function looksLikePath(path: string): boolean {
  if (path === '' || NOT_IN_PATHS.test(path) || !HAS_LETTER.test(path)) return false;
  if (path.startsWith('//')) return false; // a URL with its scheme left off
  const drive = DRIVE_PREFIX.exec(path);
  // Past a drive letter, a colon is a scheme (`javascript:`, `foo:bar`), `std::vector`, or a
  // position that did not parse (`a.ts:1-`); real file names with colons are too rare to be worth it.
  if (path.includes(':', drive ? drive[0].length : 0)) return false;
  if (drive || path.includes('/') || path.includes('\\')) return true;
  if (WELL_KNOWN_NAMES.has(path)) return true;
  const dot = path.lastIndexOf('.');
  if (dot < 0) return false;
  const extension = path.slice(dot + 1);
  if (!EXTENSION.test(extension) || DIGITS.test(extension)) return false; // `v1.2`, `127.0.0.1`
  return dot === 0 || !HOST_ENDINGS.has(extension.toLowerCase());
}

/** Decodes each run of `%XX` escapes; a run that is not valid UTF-8 is left as written. */
function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(ENCODED_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
