// "Compare with previous": how the findings of one review stand against the review before it.
// New ones, fixed ones (gone, or resolved by the user), still open ones, and ones the user
// declined. Plain TypeScript, so the panel and get-review share one answer and tests need no editor.

import type { FindingSeverity, FindingState } from '../../../shared/findingTerms';

/** The parts of a finding a comparison needs. */
export interface ComparableFinding {
  readonly id: string;
  readonly severity: FindingSeverity | null;
  readonly title: string;
  readonly reference: string;
  readonly file: string;
}

export interface ComparedFinding {
  readonly id: string;
  readonly severity: FindingSeverity | null;
  readonly title: string;
  readonly reference: string;
  readonly state: FindingState;
}

export interface FixedFinding extends ComparedFinding {
  /** Gone from the newer review, or still in it and marked resolved by the user. */
  readonly how: 'gone' | 'resolved';
}

export interface FindingComparison {
  /** In the newer review only. */
  readonly new: ComparedFinding[];
  readonly fixed: FixedFinding[];
  /** In both, and neither resolved nor declined. */
  readonly stillOpen: ComparedFinding[];
  /** In both, and marked "won't fix". */
  readonly declined: ComparedFinding[];
}

/**
 * Findings match by id (a hash of their text). One whose text changed matches a finding of the
 * same file whose title reads the same once line numbers are set aside: assistants often repeat a
 * finding with its lines moved or its explanation reworded.
 */
export function compareFindings(
  previous: readonly ComparableFinding[],
  current: readonly ComparableFinding[],
  stateOf: (id: string) => FindingState,
): FindingComparison {
  const unmatched = new Map(previous.map((finding) => [finding.id, finding]));
  const byTitle = new Map<string, ComparableFinding[]>();
  for (const finding of previous) {
    const key = titleKey(finding);
    byTitle.set(key, [...(byTitle.get(key) ?? []), finding]);
  }
  const take = (finding: ComparableFinding): boolean => {
    if (unmatched.delete(finding.id)) return true;
    const sameTitle = byTitle.get(titleKey(finding))?.find((candidate) => unmatched.has(candidate.id));
    return sameTitle !== undefined && unmatched.delete(sameTitle.id);
  };
  const result: FindingComparison = { new: [], fixed: [], stillOpen: [], declined: [] };
  // Exact ids first, so a finding repeated word for word is never claimed by a look-alike.
  const matched = new Set(current.filter((finding) => unmatched.delete(finding.id)).map((finding) => finding.id));
  for (const finding of current) {
    const compared = describe(finding, stateOf(finding.id));
    if (!matched.has(finding.id) && !take(finding)) result.new.push(compared);
    else if (compared.state === 'resolved') result.fixed.push({ ...compared, how: 'resolved' });
    else if (compared.state === 'wont-fix') result.declined.push(compared);
    else result.stillOpen.push(compared);
  }
  for (const finding of unmatched.values())
    result.fixed.push({ ...describe(finding, stateOf(finding.id)), how: 'gone' });
  return result;
}

function describe({ id, severity, title, reference }: ComparableFinding, state: FindingState): ComparedFinding {
  return { id, severity, title, reference, state };
}

/**
 * The file and the title with `:12` and `:12-14` line numbers and underscores removed, whitespace
 * collapsed. Underscores, because titles kept by earlier versions lost them (`RATEPERSECOND`).
 */
function titleKey(finding: ComparableFinding): string {
  const title = finding.title
    .replace(/:\d+(?:[-:]\d+)*/g, '')
    .replace(/_/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return `${finding.file}\u0000${title}`;
}
