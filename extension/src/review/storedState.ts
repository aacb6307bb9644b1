// What a review file on disk may contain. Stored state is untrusted (a crash, a sync tool or a
// hand edit may have touched it), so every file is checked against these schemas on load.

import { z } from 'zod';
import { MAX_FRAME_BYTES, MAX_REVIEW_BYTES, type Section } from '../../../shared/protocol';
import { REVIEW_BUDGET } from '../../../shared/reviewBudget';
import type { Review } from './review';
import { countNewlines, findSections, toSections } from '../render/sections';

/**
 * No stored file is read into memory past this size. JSON escapes a control character in six
 * bytes, so a legitimate 10 MiB review can take up to about 60 MiB on disk; the frame cap is
 * sized for the same worst case.
 */
export const MAX_STORED_FILE_BYTES = MAX_FRAME_BYTES;

/**
 * The largest revision or feedback id a file may hold: a trillion presents, far past any real use,
 * and far below where `n + 1 === n` in floating point. A file past it was not written by Redline's
 * counting; taken on trust, one `history-9999999999999999.json` stopped revisions from increasing.
 */
export const MAX_STORED_COUNTER = 2 ** 40;

const Revision = z.number().int().min(0).max(MAX_STORED_COUNTER);

/**
 * As many headings as a review may have (shared/reviewBudget.ts), so that every review made now is
 * stored with its sections and a load never parses 10 MiB again. Past it (a file written before the
 * budget) the sections are found again from the markdown on load.
 */
export const MAX_STORED_SECTIONS = REVIEW_BUDGET.headings.limit;

/**
 * A review's stored sections, checked by one loop instead of zod's machinery per heading: a review
 * may have tens of thousands of headings, and a store is opened on the window's thread. It accepts
 * exactly what the protocol's Section does (test/unit/reviewFiles.test.ts holds the two together).
 */
export function isSectionList(value: unknown): value is Section[] {
  if (!Array.isArray(value) || value.length > MAX_STORED_SECTIONS) return false;
  return value.every(isSection);
}

function isSection(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { level, title, line } = value as { level: unknown; title: unknown; line: unknown };
  return (
    Number.isInteger(level) &&
    (level as number) >= 1 &&
    (level as number) <= 6 &&
    typeof title === 'string' &&
    Number.isInteger(line) &&
    (line as number) >= 1
  );
}
const StoredSections = z.custom<Section[]>(isSectionList, 'sections are not a list of headings');

/** A review as stored. Its sections are a cache, so that a large review's markdown is not parsed again on load. */
export const StoredReview = z.object({
  revision: Revision,
  title: z.string().optional(),
  markdown: z
    .string()
    .refine((text) => Buffer.byteLength(text, 'utf8') <= MAX_REVIEW_BYTES, 'markdown is larger than the review limit'),
  cwd: z.string().optional(),
  assistant: z.string().max(200).optional(),
  updatedAt: z.string(),
  sections: StoredSections.optional(),
});
export type StoredReview = z.infer<typeof StoredReview>;

/** current.json as Redline 0.1 wrote it: the review itself inside. Still read, never written. */
const StoredCurrentV2 = z.object({ version: z.literal(2), revision: Revision, current: StoredReview.nullable() });

/**
 * current.json: the latest revision issued (a clear moves it too) and which review file is on
 * screen. Small, so that a commit can read it under the folder lock to see what another window did.
 */
export const StoredPointer = z.union([
  z.object({
    version: z.literal(3),
    revision: Revision,
    current: z
      .string()
      .regex(/^review-\d{1,16}-[0-9a-f]{8}\.md$/)
      .nullable(),
  }),
  StoredCurrentV2.refine(
    (state) => !state.current || state.current.revision <= state.revision,
    'current review is newer than the revision',
  ),
]);
export type StoredPointer = z.infer<typeof StoredPointer>;

/**
 * A review file's first line: what a list of earlier reviews shows, so that listing them reads a
 * line, not 10 MiB. The second line is the sections (JSON), and the rest is the markdown as it is:
 * JSON escaped a review of control characters into six times its size.
 */
export const ReviewHead = z.object({
  v: z.literal(3),
  revision: Revision,
  title: z.string().max(1000).optional(),
  cwd: z.string().max(4096).optional(),
  assistant: z.string().max(200).optional(),
  updatedAt: z.string().max(100),
  /** The markdown's length in UTF-8 bytes: the history lists it, and a file cut short is caught by it. */
  bytes: z.number().int().min(0).max(MAX_REVIEW_BYTES),
});
export type ReviewHead = z.infer<typeof ReviewHead>;

export const CURRENT_FILE = 'current.json';
const HISTORY_FILE = /^history-(\d{1,16})\.json$/;
const REVIEW_FILE = /^review-(\d{1,16})-([0-9a-f]{8})\.md$/;
/** Looks like one of ours but its name does not parse: treated as corrupt. */
const OUR_PREFIX = /^(history-|review-|current)/;

/** Written by Redline 0.1; still read, and deleted when it leaves the history. */
export const historyFileName = (revision: number): string => `history-${revision}.json`;
/** A review's file: named by its revision and by the store that wrote it, so two windows never write the same name. */
export const reviewFileName = (revision: number, writer: string): string => `review-${revision}-${writer}.md`;

/** What a directory entry is to the store. */
export function classifyFile(
  name: string,
): { kind: 'current' } | { kind: 'review'; revision: number } | { kind: 'unknown' } | { kind: 'foreign' } {
  if (name === CURRENT_FILE) return { kind: 'current' };
  const match = HISTORY_FILE.exec(name) ?? REVIEW_FILE.exec(name);
  // An absurd number in the name is "unknown": moved aside, and never taken as the latest revision.
  if (match)
    return Number(match[1]) <= MAX_STORED_COUNTER
      ? { kind: 'review', revision: Number(match[1]) }
      : { kind: 'unknown' };
  // Files already moved aside, and the folder's lock, stay where they are, untouched.
  if (name.includes('.corrupt-') || name.startsWith('.lock')) return { kind: 'foreign' };
  return OUR_PREFIX.test(name) ? { kind: 'unknown' } : { kind: 'foreign' };
}

/** A one-line reason from a zod error or a JSON parse error, for the warning in the log. */
export function describeProblem(error: unknown): string {
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    return `${issue.path.join('.') || 'file'}: ${issue.message}`;
  }
  // Not `instanceof Error`: Node's own errors may come from another realm (a test sandbox, a worker).
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}

/** What goes in a file: the sections only when few enough (see MAX_STORED_SECTIONS). */
export function toStored(review: StoredReview | Review): StoredReview {
  const { revision, title, markdown, cwd, assistant, updatedAt, sections } = review;
  return {
    revision,
    title,
    markdown,
    cwd,
    assistant,
    updatedAt,
    sections: sections && sections.length <= MAX_STORED_SECTIONS ? [...sections] : undefined,
  };
}

/** A review from a file, its sections checked against the text or found again. */
export function toReview(stored: StoredReview): Review {
  const sections =
    stored.sections && plausibleSections(stored.sections, stored.markdown)
      ? stored.sections
      : toSections(findSections(stored.markdown));
  return { ...toStored(stored), sections };
}

/** Stored sections are untrusted too: in order and inside the text, or found again. */
function plausibleSections(sections: readonly Section[], markdown: string): boolean {
  const lines = countNewlines(markdown) + 1;
  return sections.every((section, i) => section.line <= lines && (i === 0 || section.line > sections[i - 1].line));
}
