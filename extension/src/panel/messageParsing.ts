// Parsing the panel's messages (webviewMessages.ts): each side validates what it receives, because
// a webview is untrusted and a message event can carry anything. No vscode, no DOM.

import { FINDING_STATES, MAX_FEEDBACK_TEXT, type FindingState } from '../../../shared/findingTerms';
import type {
  ComparedFindingEntry,
  ComparisonMessage,
  EarlierReviewEntry,
  FindingMark,
  HostToWebviewMessage,
  ReviewTab,
  WebviewToHostMessage,
} from './webviewMessages';

/** Longest `openReference` target or `openExternal` url the host will act on. */
export const MAX_LINK_LENGTH = 4096;

export type Fields = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isRevision(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Finding ids are `f-` and a base64url hash, with `-n` for a repeated text. */
export function isFindingId(value: unknown): value is string {
  return typeof value === 'string' && /^f-[A-Za-z0-9_-]{1,40}$/.test(value);
}

export function isFindingState(value: unknown): value is FindingState {
  return typeof value === 'string' && (FINDING_STATES as readonly string[]).includes(value);
}

/** Absent, or a string (a title, an origin, an error). */
function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

export function isLink(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_LINK_LENGTH;
}

export function isEarlierEntry(value: unknown): value is EarlierReviewEntry {
  return (
    isRecord(value) &&
    isRevision(value.revision) &&
    typeof value.updatedAt === 'string' &&
    isOptionalString(value.title)
  );
}

export function isComparedEntry(value: unknown): value is ComparedFindingEntry {
  return (
    isRecord(value) &&
    isFindingId(value.id) &&
    (value.severity === null || typeof value.severity === 'string') &&
    typeof value.title === 'string' &&
    typeof value.reference === 'string' &&
    isFindingState(value.state)
  );
}

export function isComparison(value: unknown): value is NonNullable<ComparisonMessage['comparison']> {
  if (!isRecord(value) || !isRevision(value.revision) || !isEarlierEntry(value.previous)) return false;
  const lists = [value.new, value.fixed, value.stillOpen, value.declined];
  return (
    lists.every((list) => Array.isArray(list) && list.every(isComparedEntry)) &&
    (value.fixed as Fields[]).every((finding) => finding.how === 'gone' || finding.how === 'resolved')
  );
}

/** A review's key is its folder: '' for the first assistant's, `assistants/<slug>` for the others. */
export function isTabKey(value: unknown): value is string {
  return typeof value === 'string' && /^(?:|assistants\/[a-z0-9-]{1,64})$/.test(value);
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
    case 'sliceAdded':
      return isRevision(value.revision) ? { type: 'sliceAdded', revision: value.revision } : undefined;
    case 'openReference':
      if (!isLink(value.target) || (value.findingId !== undefined && !isFindingId(value.findingId))) return undefined;
      return {
        type: 'openReference',
        target: value.target,
        ...(value.findingId !== undefined ? { findingId: value.findingId } : {}),
      };
    case 'openExternal':
      // Only web links are ever posted; anything else (command:, file:, javascript:) is dropped here.
      return isLink(value.url) && /^https?:\/\//i.test(value.url)
        ? { type: 'openExternal', url: value.url }
        : undefined;
    case 'setFindingState':
      return isFindingId(value.id) && isFindingState(value.state)
        ? { type: 'setFindingState', id: value.id, state: value.state }
        : undefined;
    case 'revealFinding':
      return isFindingId(value.id) ? { type: 'revealFinding', id: value.id } : undefined;
    case 'applySuggestion':
      return isFindingId(value.id) &&
        typeof value.index === 'number' &&
        Number.isInteger(value.index) &&
        value.index >= 0 &&
        value.index < 1000
        ? { type: 'applySuggestion', id: value.id, index: value.index }
        : undefined;
    case 'sendMessage':
      return typeof value.text === 'string' && value.text.trim() !== '' && value.text.length <= MAX_FEEDBACK_TEXT
        ? { type: 'sendMessage', text: value.text }
        : undefined;
    case 'openEarlier':
      if (value.revision === undefined) return { type: 'openEarlier' };
      return isRevision(value.revision) && value.revision > 0
        ? { type: 'openEarlier', revision: value.revision }
        : undefined;
    case 'restoreEarlier':
      return isRevision(value.revision) && value.revision > 0
        ? { type: 'restoreEarlier', revision: value.revision }
        : undefined;
    case 'compare':
      return { type: 'compare' };
    case 'selectTab':
      return isTabKey(value.key) ? { type: 'selectTab', key: value.key } : undefined;
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
      if (!isOptionalString(value.title) || !isOptionalString(value.origin)) {
        return undefined;
      }
      if (
        (value.preview !== undefined && typeof value.preview !== 'boolean') ||
        (value.more !== undefined && typeof value.more !== 'boolean')
      ) {
        return undefined;
      }
      return {
        type: 'render',
        revision: value.revision,
        title: value.title,
        origin: value.origin,
        html: value.html,
        preview: value.preview,
        more: value.more,
      };
    case 'slice':
      if (!isRevision(value.revision) || typeof value.html !== 'string' || typeof value.last !== 'boolean') {
        return undefined;
      }
      return { type: 'slice', revision: value.revision, html: value.html, last: value.last };
    case 'append':
      if (!isRevision(value.fromRevision) || !isRevision(value.revision) || typeof value.html !== 'string') {
        return undefined;
      }
      if (!isOptionalString(value.title) || !isOptionalString(value.origin)) {
        return undefined;
      }
      return {
        type: 'append',
        fromRevision: value.fromRevision,
        revision: value.revision,
        title: value.title,
        origin: value.origin,
        html: value.html,
      };
    case 'empty':
      return { type: 'empty' };
    case 'copied':
      return { type: 'copied' };
    case 'copyFailed':
      return typeof value.message === 'string' ? { type: 'copyFailed', message: value.message } : undefined;
    case 'findings': {
      if (!Array.isArray(value.marks)) return undefined;
      const marks = value.marks.filter(
        (mark): mark is FindingMark =>
          isRecord(mark) && isFindingId(mark.id) && isFindingState(mark.state) && typeof mark.stale === 'boolean',
      );
      return { type: 'findings', marks: marks.map(({ id, state, stale }) => ({ id, state, stale })) };
    }
    case 'showFinding':
      return isFindingId(value.id) ? { type: 'showFinding', id: value.id } : undefined;
    case 'messageResult':
      if (typeof value.sent !== 'boolean' || !isOptionalString(value.error)) return undefined;
      return { type: 'messageResult', sent: value.sent, error: value.error };
    case 'history': {
      if (!Array.isArray(value.entries) || (value.viewing !== undefined && !isRevision(value.viewing)))
        return undefined;
      const entries = value.entries
        .filter(isEarlierEntry)
        .map(({ revision, title, updatedAt }) => ({ revision, title, updatedAt }));
      return { type: 'history', entries, viewing: value.viewing };
    }
    case 'tabs': {
      if (!Array.isArray(value.tabs)) return undefined;
      const tabs = value.tabs.filter(
        (tab): tab is ReviewTab =>
          isRecord(tab) && isTabKey(tab.key) && typeof tab.label === 'string' && typeof tab.active === 'boolean',
      );
      return { type: 'tabs', tabs: tabs.map(({ key, label, active }) => ({ key, label, active })) };
    }
    case 'comparison':
      if (value.comparison === null) return { type: 'comparison', comparison: null };
      return isComparison(value.comparison) ? { type: 'comparison', comparison: value.comparison } : undefined;
    default:
      return undefined;
  }
}
