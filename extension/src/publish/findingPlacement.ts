// Where each finding goes on the pull request: a review comment when its whole anchor lies in one
// hunk of the diff on the new side, else the review's body. Decided before anything is sent, so a
// comment GitHub would refuse (and with it the whole review) is never written.

import type { ExportedFinding, ExportedReview } from '../../../shared/exchange/exportedReview';
import { rightHunkHolding, type FileDiff } from './diffHunks';

/** Why a finding went into the review's body instead of onto a line. */
export type BodyReason = 'outside-diff' | 'file-not-changed' | 'no-patch' | 'stale' | 'uncommitted';

/** A finding with the key its marker carries and its path in the repository. */
export interface PublishItem {
  /** The fingerprint, with "-2", "-3"… for a second or third finding that shares it. */
  readonly key: string;
  readonly finding: ExportedFinding;
  /** Relative to the repository's root, with forward slashes. */
  readonly path: string;
}

export type Placement =
  | { readonly kind: 'comment'; readonly item: PublishItem; readonly line: number; readonly startLine?: number }
  | { readonly kind: 'body'; readonly item: PublishItem; readonly reason: BodyReason };

export interface PlacementInput {
  readonly review: ExportedReview;
  readonly files: readonly FileDiff[];
  /** A finding's path in the repository, or undefined when its file is outside it. */
  readonly pathOf: (finding: ExportedFinding) => string | undefined;
  /** Paths with changes that are not in the pull request's head (uncommitted or unpushed). */
  readonly changedLocally: ReadonlySet<string>;
}

export interface PlacementResult {
  readonly placements: readonly Placement[];
  /** Findings on files outside the repository: GitHub has no place for them. */
  readonly outsideRepository: readonly ExportedFinding[];
}

export function placeFindings(input: PlacementInput): PlacementResult {
  const byPath = new Map(input.files.map((file) => [file.path, file]));
  const outsideRepository: ExportedFinding[] = [];
  const items: PublishItem[] = [];
  for (const finding of input.review.findings) {
    const path = input.pathOf(finding);
    if (path === undefined) outsideRepository.push(finding);
    else items.push({ key: finding.fingerprint, finding, path });
  }
  const placements = withDistinctKeys(items).map((item) => place(item, byPath.get(item.path), input.changedLocally));
  return { placements, outsideRepository };
}

function place(item: PublishItem, diff: FileDiff | undefined, changedLocally: ReadonlySet<string>): Placement {
  const { finding } = item;
  const body = (reason: BodyReason): Placement => ({ kind: 'body', item, reason });
  if (finding.stale) return body('stale');
  if (changedLocally.has(item.path)) return body('uncommitted');
  if (!diff) return body('file-not-changed');
  if (diff.uncommentable) return body('no-patch');
  const start = Math.max(1, Math.min(finding.line, finding.endLine));
  const end = Math.max(finding.line, finding.endLine);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || !rightHunkHolding(diff, start, end))
    return body('outside-diff');
  return start === end ? { kind: 'comment', item, line: end } : { kind: 'comment', item, line: end, startLine: start };
}

/**
 * Two findings of one file with the same title share a fingerprint. Each gets a key of its own,
 * numbered in the order of their lines, so that publishing again finds each one's comment.
 */
function withDistinctKeys(items: readonly PublishItem[]): PublishItem[] {
  const order = [...items].sort((a, b) => a.finding.line - b.finding.line || a.finding.endLine - b.finding.endLine);
  const seen = new Map<string, number>();
  const keys = new Map<PublishItem, string>();
  for (const item of order) {
    const count = (seen.get(item.key) ?? 0) + 1;
    seen.set(item.key, count);
    keys.set(item, count === 1 ? item.key : `${item.key}-${count}`);
  }
  return items.map((item) => ({ ...item, key: keys.get(item) ?? item.key }));
}
