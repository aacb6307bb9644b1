// The kinds of finding the exports name: one per severity label, and one for a finding without a
// label. Each export writes a finding's kind its own way (a SARIF rule and level, a reviewdog
// severity); the mapping lives here so that the writers and the SARIF reader agree on it.

import { FINDING_SEVERITIES, type FindingSeverity } from '../findingTerms';

/** A finding's kind: its severity label, or `unlabelled`. */
export type FindingKind = FindingSeverity | 'unlabelled';
export const FINDING_KINDS: readonly FindingKind[] = [...FINDING_SEVERITIES, 'unlabelled'];

export const kindOf = (severity: FindingSeverity | null): FindingKind => severity ?? 'unlabelled';

export type SarifLevel = 'error' | 'warning' | 'note' | 'none';

/**
 * SARIF's level for each kind. `error` is for what should stop a merge (blocking, bug), `warning`
 * for what may go wrong, `note` for advice and questions. Praise is not a problem: it is written
 * with kind `informational` and level `none`, as SARIF requires for a result that is not a failure.
 */
export const SARIF_LEVEL: Readonly<Record<FindingKind, SarifLevel>> = {
  blocking: 'error',
  bug: 'error',
  risk: 'warning',
  suggestion: 'note',
  nit: 'note',
  question: 'note',
  praise: 'none',
  unlabelled: 'warning',
};

export type ReviewdogSeverity = 'ERROR' | 'WARNING' | 'INFO';

/** reviewdog has three severities: SARIF's `note` and `none` are both INFO. */
export const REVIEWDOG_SEVERITY: Readonly<Record<FindingKind, ReviewdogSeverity>> = {
  blocking: 'ERROR',
  bug: 'ERROR',
  risk: 'WARNING',
  suggestion: 'INFO',
  nit: 'INFO',
  question: 'INFO',
  praise: 'INFO',
  unlabelled: 'WARNING',
};

/** A kind as a heading or a rule's name says it. */
export const KIND_TITLE: Readonly<Record<FindingKind, string>> = {
  blocking: 'Blocking',
  bug: 'Bug',
  risk: 'Risk',
  suggestion: 'Suggestion',
  nit: 'Nit',
  question: 'Question',
  praise: 'Praise',
  unlabelled: 'Finding without a label',
};

/** What a kind's rule says it is, for the SARIF rule's short description. */
export const KIND_DESCRIPTION: Readonly<Record<FindingKind, string>> = {
  blocking: 'A problem that should be fixed before the change is merged.',
  bug: 'Code that does the wrong thing.',
  risk: 'Code that may go wrong in some cases, or is hard to change safely.',
  suggestion: 'A better way to write the code.',
  nit: 'A small matter of style or naming.',
  question: 'A question for the author about the code.',
  praise: 'Something done well.',
  unlabelled: 'A remark on the code that the reviewer gave no severity.',
};
