// export-review's pages: the text of one export cut into pages of EXPORT_PAGE_CHARS, held in the
// window between pages so that every page is of the same export, even if the review changes
// meanwhile. A few exports are held at once, each for a short while and dropped once read to its end.

import { randomBytes } from 'crypto';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { EXPORT_PAGE_CHARS, ErrorCode, IpcError, type ExportReviewResult } from '../../../shared/protocol';

/** Exports held at once: a reader reads one at a time; a second is a second reader. */
const MAX_HELD = 2;
/** An export not read on within this long is dropped: its reader has gone. */
const HELD_MS = 120_000;

const CURSOR = /^x([0-9a-f]{16})\.c(\d{1,12})$/;

interface Held {
  readonly text: string;
  readonly summary: Omit<ExportReviewResult, 'text' | 'nextCursor'>;
  /** Whose review: another assistant's cursor reads nothing. */
  readonly assistant: string | undefined;
  readonly expiry: NodeJS.Timeout;
}

export class ExportPages extends Disposable {
  private readonly held = new Map<string, Held>();

  constructor() {
    super();
    this.register(
      toDisposable(() => {
        for (const entry of this.held.values()) clearTimeout(entry.expiry);
        this.held.clear();
      }),
    );
  }

  /** The first page; the text is held for the pages after it when there are any. */
  first(text: string, summary: Held['summary'], assistant: string | undefined): ExportReviewResult {
    const end = pageEnd(text, 0);
    if (end >= text.length) return { ...summary, text };
    const id = randomBytes(8).toString('hex');
    const expiry = setTimeout(() => this.held.delete(id), HELD_MS);
    // Held memory must never keep a window's host alive.
    expiry.unref();
    this.held.set(id, { text, summary, assistant, expiry });
    for (const [oldest, entry] of this.held) {
      if (this.held.size <= MAX_HELD) break;
      clearTimeout(entry.expiry);
      this.held.delete(oldest);
    }
    return { ...summary, text: text.slice(0, end), nextCursor: `x${id}.c${end}` };
  }

  /** The page a cursor names, or an error that says to export again. */
  next(cursor: string, assistant: string | undefined): ExportReviewResult {
    const match = CURSOR.exec(cursor);
    const entry = match ? this.held.get(match[1]) : undefined;
    const offset = match ? Number(match[2]) : NaN;
    if (!match || !entry || entry.assistant !== assistant || offset >= entry.text.length) {
      throw new IpcError(
        ErrorCode.InvalidParams,
        `"${cursor.slice(0, 40)}" names no export this window holds (an export is held for ${HELD_MS / 60_000} minutes, until it is read to its end). Export again without a cursor.`,
      );
    }
    const end = pageEnd(entry.text, offset);
    if (end >= entry.text.length) {
      clearTimeout(entry.expiry);
      this.held.delete(match[1]);
      return { ...entry.summary, text: entry.text.slice(offset) };
    }
    return { ...entry.summary, text: entry.text.slice(offset, end), nextCursor: `x${match[1]}.c${end}` };
  }
}

/** Where the page from `offset` ends: EXPORT_PAGE_CHARS on, never between the halves of a surrogate pair. */
function pageEnd(text: string, offset: number): number {
  const limit = offset + EXPORT_PAGE_CHARS;
  if (limit >= text.length) return text.length;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}
