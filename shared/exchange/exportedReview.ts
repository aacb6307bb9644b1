// A review as it leaves the window: what the exports (SARIF, rdjsonl, markdown) and publishing to a
// pull request are written from. The window builds it from the review, its findings' current
// anchors and the user's answers; the writers and the publisher read only this, so each can be
// tested without a window. Plain data, no zod: the command line and the extension both import it.

import { createHash } from 'crypto';
import type { FindingSeverity, FindingState } from '../findingTerms';
import type { FeedbackSource, ImportedResult, ImportedTool } from '../protocol';

/** One reply in a finding's thread: the user's, or one imported from a log. */
export interface ExportedReply {
  readonly text: string;
  /** ISO 8601. */
  readonly at: string;
  /** Absent: the window's (the user's own). */
  readonly source?: FeedbackSource;
  /** For an imported reply: "imported from results.sarif, written by CodeQL 2.19.0". */
  readonly origin?: string;
}

export interface ExportedFinding {
  /** The finding's id in the review (a hash of its block's text). */
  readonly id: string;
  /** Stays the same across re-reviews of the same finding: see findingFingerprint. */
  readonly fingerprint: string;
  readonly severity: FindingSeverity | null;
  readonly title: string;
  /** The finding's block, as the assistant wrote it. */
  readonly markdown: string;
  /** Relative to ExportedReview.repositoryRoot, with forward slashes. */
  readonly file: string;
  /** 1-based, where the code is now (the finding's current anchor), not the lines as written. */
  readonly line: number;
  readonly endLine: number;
  readonly state: FindingState;
  /** The code it pointed at is gone or changed past recognition. */
  readonly stale: boolean;
  readonly replies: readonly ExportedReply[];
  /** What its ```suggestion blocks propose in place of lines line..endLine. */
  readonly suggestions: readonly string[];
  /** It is about its whole file (its reference names no line): written without lines. */
  readonly fileLevel?: boolean;
  /** Where its state came from, when it was imported from a log rather than given in the window. */
  readonly stateOrigin?: string;
  /** The result of an imported log it was: the tool's rule, level and fingerprints, exported unchanged. */
  readonly sarif?: ImportedResult;
}

/** A result of an imported log that is no finding here (no file, or one not in the workspace). */
export interface UnplacedResult {
  readonly sarif: ImportedResult;
  /** Its item in the review, as a message of its own (the export's fallback for its text). */
  readonly message: string;
}

export interface ExportedReview {
  /** Whose review (the assistant's name), when known. */
  readonly assistant?: string;
  readonly title?: string;
  readonly revision: number;
  readonly markdown: string;
  /** Absolute path that every finding's `file` is relative to: the repository root, else the workspace folder. */
  readonly repositoryRoot: string;
  readonly findings: readonly ExportedFinding[];
  /** Redline's version, for the SARIF tool driver. */
  readonly toolVersion: string;
  /** The log the review was imported from: its name and tools, for its findings' `sarif`. */
  readonly importedLog?: { readonly name: string; readonly tools: readonly ImportedTool[] };
  /** That log's results that are no finding here: kept, exported where the log put them. */
  readonly unplaced?: readonly UnplacedResult[];
}

/**
 * A finding's identity across re-reviews: its file and its title with the words that change from one
 * review to the next taken out (line numbers, references, case, spacing, emphasis). A re-review that
 * moves the code or renumbers the lines keeps the fingerprint; one that says something else about
 * the same file gets a new one. A reference is taken out whole when its path has letters beyond
 * ASCII (`src/ünïcode.ts:3`) or it is written as a link (`[src/a b.ts:3](<src/a%20b.ts:3>)`, as
 * the SARIF import writes a path with spaces), so such a finding keeps its fingerprint too.
 */
export function findingFingerprint(file: string, title: string): string {
  const words = title
    .toLowerCase()
    .replace(/\[[^\]\n]*:\d+(?:[-:]\d+)*\]\([^)\n]*\)/g, ' ')
    .replace(/[\p{L}\p{N}_./-]*:\d+(?:[-:]\d+)*/gu, ' ')
    .replace(/\b(?:line|lines|l)\s*\d+(?:\s*[-–]\s*\d+)?\b/g, ' ')
    .replace(/[`*_~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return createHash('sha256').update(`${file}\n${words}`).digest('hex').slice(0, 32);
}
