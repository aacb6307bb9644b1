// The messages between the review panel (extension host) and its webview script: one union per
// direction, shared by both sides. The host parses what the webview posts (webviewMessageSchemas.ts),
// because the webview is untrusted; the webview takes what the host posts by its type (hostMessages.ts).

import { MAX_FEEDBACK_TEXT, type FindingState } from '../../../shared/findingTerms';

/** The revision the webview acknowledges after showing the empty state: nothing presented. */
export const NO_REVIEW_REVISION = 0;

export { MAX_FEEDBACK_TEXT };

// ---- host → webview ------------------------------------------------------------------------

/** Replace the panel body with a rendered review. */
export interface RenderMessage {
  readonly type: 'render';
  readonly revision: number;
  readonly title?: string;
  /** Where the review came from, when not the window's own folders: "the worktree …". */
  readonly origin?: string;
  /** Sanitized HTML produced by the host's markdown renderer: the whole page, or its first slice. */
  readonly html: string;
  /** Only the first screen of a long review; the whole of the same revision follows. */
  readonly preview?: boolean;
  /** `html` is the first slice of the page: the rest follows in `slice` messages of this revision. */
  readonly more?: boolean;
}

/** The next slice of a page whose `render` said `more`; the panel adds it below what it has. */
export interface SliceMessage {
  readonly type: 'slice';
  readonly revision: number;
  /** Sanitized HTML: whole top-level blocks. */
  readonly html: string;
  /** The page is whole after this one. */
  readonly last: boolean;
}

/** Add the rendered new part of an append after what the webview shows, which is `fromRevision`. */
export interface AppendMessage {
  readonly type: 'append';
  readonly fromRevision: number;
  readonly revision: number;
  readonly title?: string;
  readonly origin?: string;
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
  /** Set when its state or a reply came from an imported file, not the user: where from (plain text). */
  readonly importedFrom?: string;
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

/** One assistant's review, as a tab of the panel. */
export interface ReviewTab {
  /** Identifies the review in the window. */
  readonly key: string;
  /** The assistant's name. */
  readonly label: string;
  readonly active: boolean;
}

/** The panel's tabs: one per assistant with a review in this window. */
export interface TabsMessage {
  readonly type: 'tabs';
  readonly tabs: readonly ReviewTab[];
}

export type HostToWebviewMessage =
  | RenderMessage
  | SliceMessage
  | AppendMessage
  | EmptyMessage
  | CopiedMessage
  | CopyFailedMessage
  | FindingsMessage
  | ShowFindingMessage
  | MessageResultMessage
  | HistoryMessage
  | ComparisonMessage
  | TabsMessage;

// ---- host → webview: whose move brought the panel to the front (editor/editorInFront.ts) --------
// Not HostToWebviewMessage: a small listener of their own answers them (webview/userMoves.ts).

/**
 * Redline is about to show an editor: the panel counts the user's moves in it afresh. Before the
 * show, not after: a click on the panel's tab can land while the show's answer is on its way.
 */
export interface EditorShowingMessage {
  readonly type: 'editorShowing';
}

/** Redline has shown the editor: the panel says if it still has the keyboard with no move of the user. */
export interface EditorShownMessage {
  readonly type: 'editorShown';
}

/** The panel became the active editor: has the user moved into it since the editor was shown? */
export interface WhoFocusedMessage {
  readonly type: 'whoFocused';
  readonly question: number;
}

export type FocusCheckMessage = EditorShowingMessage | EditorShownMessage | WhoFocusedMessage;

// ---- webview → host ------------------------------------------------------------------------
// Inferred from the schemas the host parses them with; a type-only import, so zod stays out of
// the webview's bundle.

export type { WebviewToHostMessage } from './webviewMessageSchemas';
