// The words both sides and the webview use for findings and feedback. No zod here: the webview
// script imports this, and must stay small.

/** The leading labels that give a finding its severity (`**bug**:`, `nit:` …), most severe first. */
export const FINDING_SEVERITIES = ['blocking', 'bug', 'risk', 'suggestion', 'nit', 'question', 'praise'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** What the user decided about a finding. */
export const FINDING_STATES = ['open', 'resolved', 'accepted', 'wont-fix'] as const;
export type FindingState = (typeof FINDING_STATES)[number];

/** A reply or a free message from the user is cut at this many characters. */
export const MAX_FEEDBACK_TEXT = 16 * 1024;
