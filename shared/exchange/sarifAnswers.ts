// What a SARIF result says in Redline's terms: its severity label, an answer (state) and replies,
// and its id. Redline's export writes these in the result's property bag (sarifKeys.ts) and they
// are read back from there, checked, whichever tool's run holds them; any other tool's result gets
// a label from its kind and level, and a state from its suppressions and baseline state. None of it
// is the user's: whatever a file says is kept as imported (the window records where it came from).

import { z } from 'zod';
import {
  FINDING_SEVERITIES,
  FINDING_STATES,
  MAX_FEEDBACK_TEXT,
  type FindingSeverity,
  type FindingState,
} from '../findingTerms';
import type { ExportedReply } from './exportedReview';
import { RESULT_PROPERTY } from './sarifKeys';
import type { SarifLevel, SarifResult, SarifRule } from './sarifShape';

/** Replies read back per finding; a thread in the window holds no more than this either. */
export const MAX_IMPORTED_REPLIES = 200;
const FINDING_ID = /^f-[A-Za-z0-9_-]{1,64}$/;
const MAX_AT_CHARS = 64;
/** A reply as Redline's export writes it; its text is cut to MAX_FEEDBACK_TEXT rather than refused. */
const WrittenReply = z.object({ text: z.string(), at: z.string().max(MAX_AT_CHARS) });

/**
 * Another tool's result as a label. A failure (the default kind) by its level: `error` is a bug,
 * `warning` a risk, `note` a suggestion, `none` a nit. A result that asks for a person (`review`,
 * `open`) is a question; one that passed is praise; one for information only is a nit.
 */
export function labelOf(
  result: SarifResult,
  rule: SarifRule | undefined,
  fromRedline: boolean,
): FindingSeverity | null {
  if (fromRedline) {
    const written = result.properties?.[RESULT_PROPERTY.severity] ?? result.ruleId?.replace(/^redline-/, '');
    return (FINDING_SEVERITIES as readonly unknown[]).includes(written) ? (written as FindingSeverity) : null;
  }
  switch (result.kind) {
    case 'pass':
      return 'praise';
    case 'review':
    case 'open':
      return 'question';
    case 'informational':
    case 'notApplicable':
      return 'nit';
    default:
      return LEVEL_LABEL[result.level ?? rule?.defaultConfiguration?.level ?? 'warning'];
  }
}

const LEVEL_LABEL: Record<SarifLevel, FindingSeverity> = {
  error: 'bug',
  warning: 'risk',
  note: 'suggestion',
  none: 'nit',
};

/**
 * Redline's own state when it wrote one. Otherwise a suppression the team accepted (SARIF's default
 * status) is a finding they will not fix, and a result absent from this run against its baseline
 * has been fixed; a suppression still under review, or rejected, leaves the finding open.
 */
export function stateOf(result: SarifResult): FindingState {
  const written = result.properties?.[RESULT_PROPERTY.state];
  if ((FINDING_STATES as readonly unknown[]).includes(written)) return written as FindingState;
  if (result.suppressions?.some((suppression) => suppression.status === undefined || suppression.status === 'accepted'))
    return 'wont-fix';
  if (result.baselineState === 'absent') return 'resolved';
  return 'open';
}

/** The replies the log carries in Redline's property, each checked; anything else in the bag is not a reply. */
export function repliesOf(result: SarifResult): ExportedReply[] {
  const written = result.properties?.[RESULT_PROPERTY.replies];
  if (!Array.isArray(written)) return [];
  const replies: ExportedReply[] = [];
  for (const reply of written.slice(0, MAX_IMPORTED_REPLIES)) {
    const parsed = WrittenReply.safeParse(reply);
    if (parsed.success) replies.push({ text: parsed.data.text.slice(0, MAX_FEEDBACK_TEXT), at: parsed.data.at });
  }
  return replies;
}

/** The finding's id in the review that was exported, when it is one Redline could have made. */
export function idOf(result: SarifResult): string | undefined {
  const written = result.properties?.[RESULT_PROPERTY.id];
  return typeof written === 'string' && FINDING_ID.test(written) ? written : undefined;
}

/** Whether Redline wrote it as stale (its code gone or changed past recognition). */
export function staleOf(result: SarifResult): boolean {
  return result.properties?.[RESULT_PROPERTY.stale] === true;
}
