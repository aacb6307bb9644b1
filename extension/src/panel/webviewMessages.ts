// The messages between the review panel (extension host) and its webview script: one union per
// direction, shared by both sides. Each side validates what it receives, because a webview is
// untrusted and a message event can carry anything.

import { FINDING_STATES, MAX_FEEDBACK_TEXT, type FindingState } from '../../../shared/findingTerms';

/** The revision the webview acknowledges after showing the empty state: nothing presented. */
export const NO_REVIEW_REVISION = 0;

export { MAX_FEEDBACK_TEXT };

/** Longest `openReference` target or `openExternal` url the host will act on. */
export const MAX_LINK_LENGTH = 4096;

// ---- host → webview ------------------------------------------------------------------------

/** Replace the panel body with a rendered review. */
export interface RenderMessage {
  readonly type: 'render';
  readonly revision: number;
  readonly title?: string;
  /** Sanitized HTML produced by the host's markdown renderer. */
  readonly html: string;
  /** Where in `html` the first screen's blocks end: painted first, the rest a frame later. */
  readonly firstScreen?: number;
  /** Only the first screen of a long review; the whole of the same revision follows. */
  readonly preview?: boolean;
}

/** Add the rendered new part of an append after what the webview shows, which is `fromRevision`. */
export interface AppendMessage {
  readonly type: 'append';
  readonly fromRevision: number;
  readonly revision: number;
  readonly title?: string;
  /** Sanitized HTML of the appended markdown only. */
  readonly html: string;
}

/** Show the empty state: nothing has been presented yet, or the review was cleared. */
export interface EmptyMessage {
  readonly type: 'empty';
}

/** The review's markdown is on the clipboard. */
export interface CopiedMessage {
  readonly type: 'copied';
}

export interface CopyFailedMessage {
  readonly type: 'copyFailed';
  readonly message: string;
}

/** How each finding shown stands: the webview marks its block and offers its actions. */
export interface FindingMark {
  readonly id: string;
  readonly state: FindingState;
  readonly stale: boolean;
}

export interface FindingsMessage {
  readonly type: 'findings';
  readonly marks: readonly FindingMark[];
}

/** Scroll to a finding's block and point it out (from the thread's "Show in Panel"). */
export interface ShowFindingMessage {
  readonly type: 'showFinding';
  readonly id: string;
}

/** What became of the message from the box: sent (the box is emptied) or not (it keeps the text). */
export interface MessageResultMessage {
  readonly type: 'messageResult';
  readonly sent: boolean;
  readonly error?: string;
}

/** An earlier review, as the panel's picker lists it. */
export interface EarlierReviewEntry {
  readonly revision: number;
  readonly title?: string;
  readonly updatedAt: string;
}

/** The earlier reviews for the picker, and which of them the panel shows (none: the current review). */
export interface HistoryMessage {
  readonly type: 'history';
  readonly entries: readonly EarlierReviewEntry[];
  readonly viewing?: number;
}

/** A finding as "Compare with previous" lists it. */
export interface ComparedFindingEntry {
  readonly id: string;
  readonly severity: string | null;
  readonly title: string;
  readonly reference: string;
  readonly state: FindingState;
}

/** How the shown review's findings stand against the review before it; null: there is none. */
export interface ComparisonMessage {
  readonly type: 'comparison';
  readonly comparison: {
    readonly revision: number;
    readonly previous: EarlierReviewEntry;
    readonly new: readonly ComparedFindingEntry[];
    readonly fixed: readonly (ComparedFindingEntry & { readonly how: 'gone' | 'resolved' })[];
    readonly stillOpen: readonly ComparedFindingEntry[];
    readonly declined: readonly ComparedFindingEntry[];
  } | null;
}

export type HostToWebviewMessage =
  | RenderMessage
  | AppendMessage
  | EmptyMessage
  | CopiedMessage
  | CopyFailedMessage
  | FindingsMessage
  | ShowFindingMessage
  | MessageResultMessage
  | HistoryMessage
  | ComparisonMessage;

// ---- webview → host ------------------------------------------------------------------------

/**
 * The webview document has loaded and wants the current review in full. Sent again after every
 * reload, and when an append does not follow the revision it shows.
 */
export interface ReadyMessage {
  readonly type: 'ready';
}

/** The webview has painted a render (`revision`) or the empty state (`NO_REVIEW_REVISION`). */
export interface RenderedMessage {
  readonly type: 'rendered';
  readonly revision: number;
}

/** A `file:line` reference was clicked: `target` is the anchor's raw `data-ref`. */
export interface OpenReferenceMessage {
  readonly type: 'openReference';
  readonly target: string;
}

/** An http(s) link was clicked: `url` is the anchor's raw `data-external`. */
export interface OpenExternalMessage {
  readonly type: 'openExternal';
  readonly url: string;
}

/** The Copy button was clicked. */
export interface CopyMessage {
  readonly type: 'copy';
}

/** A state button beside a finding was clicked. */
export interface SetFindingStateMessage {
  readonly type: 'setFindingState';
  readonly id: string;
  readonly state: FindingState;
}

/** A finding's block was clicked: show its thread in the code. */
export interface RevealFindingMessage {
  readonly type: 'revealFinding';
  readonly id: string;
}

/** "Apply…" on a finding's suggestion: its finding and its place among the finding's suggestions. */
export interface ApplySuggestionMessage {
  readonly type: 'applySuggestion';
  readonly id: string;
  readonly index: number;
}

/** The box's free message to the assistant. */
export interface SendMessageMessage {
  readonly type: 'sendMessage';
  readonly text: string;
}

/** The picker chose an earlier review (shown read-only), or the current one again. */
export interface OpenEarlierMessage {
  readonly type: 'openEarlier';
  /** Undefined: back to the current review. */
  readonly revision?: number;
}

/** "Restore as current" on an earlier review. */
export interface RestoreEarlierMessage {
  readonly type: 'restoreEarlier';
  readonly revision: number;
}

/** "Compare with previous" for the review shown. */
export interface CompareMessage {
  readonly type: 'compare';
}

export type WebviewToHostMessage =
  | ReadyMessage
  | RenderedMessage
  | OpenReferenceMessage
  | OpenExternalMessage
  | CopyMessage
  | SetFindingStateMessage
  | RevealFindingMessage
  | ApplySuggestionMessage
  | SendMessageMessage
  | OpenEarlierMessage
  | RestoreEarlierMessage
  | CompareMessage;

// ---- validation ----------------------------------------------------------------------------

type Fields = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRevision(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isOffsetIn(value: unknown, text: string): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= text.length;
}

/** Finding ids are `f-` and a base64url hash, with `-n` for a repeated text. */
function isFindingId(value: unknown): value is string {
  return typeof value === 'string' && /^f-[A-Za-z0-9_-]{1,40}$/.test(value);
}

function isFindingState(value: unknown): value is FindingState {
  return typeof value === 'string' && (FINDING_STATES as readonly string[]).includes(value);
}

function isLink(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_LINK_LENGTH;
}

/** A message from the webview, or `undefined` when it is not one this protocol defines. */
export function parseWebviewMessage(value: unknown): WebviewToHostMessage | undefined {
  if (!isRecord(value)) {
    return undefined;
  }
  switch (value.type) {
    case 'ready':
      return { type: 'ready' };
    case 'copy':
      return { type: 'copy' };
    case 'rendered':
      return isRevision(value.revision) ? { type: 'rendered', revision: value.revision } : undefined;
    case 'openReference':
      return isLink(value.target) ? { type: 'openReference', target: value.target } : undefined;
    case 'openExternal':
      // Only web links are ever posted; anything else (command:, file:, javascript:) is dropped here.
      return isLink(value.url) && /^https?:\/\//i.test(value.url)
        ? { type: 'openExternal', url: value.url }
        : undefined;
    case 'setFindingState':
      return isFindingId(value.id) && isFindingState(value.state) ? { type: 'setFindingState', id: value.id, state: value.state } : undefined;
    case 'revealFinding':
      return isFindingId(value.id) ? { type: 'revealFinding', id: value.id } : undefined;
    case 'applySuggestion':
      return isFindingId(value.id) && typeof value.index === 'number' && Number.isInteger(value.index) && value.index >= 0 && value.index < 1000
        ? { type: 'applySuggestion', id: value.id, index: value.index }
        : undefined;
    case 'sendMessage':
      return typeof value.text === 'string' && value.text.trim() !== '' && value.text.length <= MAX_FEEDBACK_TEXT
        ? { type: 'sendMessage', text: value.text }
        : undefined;
    case 'openEarlier':
      if (value.revision === undefined) return { type: 'openEarlier' };
      return isRevision(value.revision) && value.revision > 0 ? { type: 'openEarlier', revision: value.revision } : undefined;
    case 'restoreEarlier':
      return isRevision(value.revision) && value.revision > 0 ? { type: 'restoreEarlier', revision: value.revision } : undefined;
    case 'compare':
      return { type: 'compare' };
    default:
      return undefined;
  }
}

/** A message from the host, or `undefined` when it is not one this protocol defines. */
export function parseHostMessage(value: unknown): HostToWebviewMessage | undefined {
  if (!isRecord(value)) {
    return undefined;
  }
  switch (value.type) {
    case 'render':
      if (!isRevision(value.revision) || typeof value.html !== 'string') {
        return undefined;
      }
      if (value.title !== undefined && typeof value.title !== 'string') {
        return undefined;
      }
      if (value.firstScreen !== undefined && !isOffsetIn(value.firstScreen, value.html)) {
        return undefined;
      }
      if (value.preview !== undefined && typeof value.preview !== 'boolean') {
        return undefined;
      }
      return {
        type: 'render',
        revision: value.revision,
        title: value.title,
        html: value.html,
        firstScreen: value.firstScreen,
        preview: value.preview,
      };
    case 'append':
      if (!isRevision(value.fromRevision) || !isRevision(value.revision) || typeof value.html !== 'string') {
        return undefined;
      }
      if (value.title !== undefined && typeof value.title !== 'string') {
        return undefined;
      }
      return { type: 'append', fromRevision: value.fromRevision, revision: value.revision, title: value.title, html: value.html };
    case 'empty':
      return { type: 'empty' };
    case 'copied':
      return { type: 'copied' };
    case 'copyFailed':
      return typeof value.message === 'string' ? { type: 'copyFailed', message: value.message } : undefined;
    case 'findings': {
      if (!Array.isArray(value.marks)) return undefined;
      const marks = value.marks.filter(
        (mark): mark is FindingMark => isRecord(mark) && isFindingId(mark.id) && isFindingState(mark.state) && typeof mark.stale === 'boolean',
      );
      return { type: 'findings', marks: marks.map(({ id, state, stale }) => ({ id, state, stale })) };
    }
    case 'showFinding':
      return isFindingId(value.id) ? { type: 'showFinding', id: value.id } : undefined;
    case 'messageResult':
      if (typeof value.sent !== 'boolean' || (value.error !== undefined && typeof value.error !== 'string')) return undefined;
      return { type: 'messageResult', sent: value.sent, error: value.error };
    case 'history': {
      if (!Array.isArray(value.entries) || (value.viewing !== undefined && !isRevision(value.viewing))) return undefined;
      const entries = value.entries.filter(isEarlierEntry).map(({ revision, title, updatedAt }) => ({ revision, title, updatedAt }));
      return { type: 'history', entries, viewing: value.viewing };
    }
    case 'comparison':
      if (value.comparison === null) return { type: 'comparison', comparison: null };
      return isComparison(value.comparison) ? { type: 'comparison', comparison: value.comparison } : undefined;
    default:
      return undefined;
  }
}

function isEarlierEntry(value: unknown): value is EarlierReviewEntry {
  return (
    isRecord(value) &&
    isRevision(value.revision) &&
    typeof value.updatedAt === 'string' &&
    (value.title === undefined || typeof value.title === 'string')
  );
}

function isComparedEntry(value: unknown): value is ComparedFindingEntry {
  return (
    isRecord(value) &&
    isFindingId(value.id) &&
    (value.severity === null || typeof value.severity === 'string') &&
    typeof value.title === 'string' &&
    typeof value.reference === 'string' &&
    isFindingState(value.state)
  );
}

function isComparison(value: unknown): value is NonNullable<ComparisonMessage['comparison']> {
  if (!isRecord(value) || !isRevision(value.revision) || !isEarlierEntry(value.previous)) return false;
  const lists = [value.new, value.fixed, value.stillOpen, value.declined];
  return (
    lists.every((list) => Array.isArray(list) && list.every(isComparedEntry)) &&
    (value.fixed as Fields[]).every((finding) => finding.how === 'gone' || finding.how === 'resolved')
  );
}
