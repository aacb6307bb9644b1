// Where each finding goes on the pull request: a review comment when its whole anchor lies in one
// hunk of the diff on the new side, else the review's body. Decided before anything is sent, so a
// comment GitHub would refuse (and with it the whole review) is never written.

import { createHash } from 'crypto';
import type { ExportedFinding, ExportedReview } from '../../../shared/exchange/exportedReview';
import { rightHunkHolding, type FileDiff } from './diffHunks';

/** Why a finding went into the review's body instead of onto a line. */
export type BodyReason = 'outside-diff' | 'file-not-changed' | 'no-patch' | 'stale' | 'uncommitted';

/** A finding with the key its marker carries and its path in the repository. */
export interface PublishItem {
  /**
   * The fingerprint; for findings that share one, the fingerprint and a hash of the finding's own
   * id, so that no finding's key depends on another's being there (see keysOf).
   */
  readonly key: string;
  /** Keys it may have been published under before: the other form, and the fingerprint alone. */
  readonly earlierKeys: readonly string[];
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
    else items.push({ key: finding.fingerprint, earlierKeys: [], finding, path });
  }
  const placements = keysOf(items).map((item) => place(item, byPath.get(item.path), input.changedLocally));
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
 * Two findings of one file with the same title share a fingerprint. Each of them is keyed by the
 * fingerprint and a hash of its own id (the finding's text), never by its rank among them: fixing
 * one must not hand its comment to another. A finding alone with its fingerprint keeps the
 * fingerprint as its key; either form finds the comment written under the other (publishPlan.ts).
 */
function keysOf(items: readonly PublishItem[]): PublishItem[] {
  const count = new Map<string, number>();
  for (const item of items) count.set(item.key, (count.get(item.key) ?? 0) + 1);
  return items.map((item) => {
    const own = `${item.key}-${createHash('sha256').update(item.finding.id).digest('hex').slice(0, 10)}`;
    return (count.get(item.key) ?? 0) > 1
      ? { ...item, key: own, earlierKeys: [item.key] }
      : { ...item, earlierKeys: [own] };
  });
}
