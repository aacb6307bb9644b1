// What the webview may post to the host, as zod schemas with the types inferred from them. The
// webview is untrusted (it shows what an assistant wrote), so the host parses every message here
// before acting on it. The webview imports these types only: zod stays out of its bundle.

import { z } from 'zod';
// findingTerms, not protocol/reviews (which has Node imports): the webview's typecheck reads this file.
import { FINDING_STATES, MAX_FEEDBACK_TEXT } from '../../../shared/findingTerms';

/** Longest `openReference` target or `openExternal` url the host will act on. */
export const MAX_LINK_LENGTH = 4096;

const FindingState = z.enum(FINDING_STATES);
const Revision = z.number().int().min(0);
/** Finding ids are `f-` and a base64url hash, with `-n` for a repeated text. */
const FindingId = z.string().regex(/^f-[A-Za-z0-9_-]{1,40}$/);
const Link = z.string().min(1).max(MAX_LINK_LENGTH);
/** A review's key is its folder: '' for the first assistant's, `assistants/<slug>` for the others. */
const TabKey = z.string().regex(/^(?:|assistants\/[a-z0-9-]{1,64})$/);

/**
 * The webview document has loaded and wants the current review in full. Sent again after every
 * reload, and when an append does not follow the revision it shows.
 */
const ReadyMessage = z.object({ type: z.literal('ready') });

/** The webview has painted a render (`revision`, every slice of it) or the empty state (`NO_REVIEW_REVISION`). */
const RenderedMessage = z.object({ type: z.literal('rendered'), revision: Revision });

/**
 * The webview has added a page's first slice or one slice more. The host posts a long page's next
 * slices only as they are taken, so that the next review never waits behind a queue of slices.
 */
const SliceAddedMessage = z.object({ type: z.literal('sliceAdded'), revision: Revision });

/** A `file:line` reference was clicked: `target` is the anchor's raw `data-ref`; `findingId` when it is inside a finding. */
const OpenReferenceMessage = z.object({
  type: z.literal('openReference'),
  target: Link,
  findingId: FindingId.optional(),
});

/** An http(s) link was clicked: `url` is the anchor's raw `data-external`. Anything else (command:, file:) is refused. */
const OpenExternalMessage = z.object({ type: z.literal('openExternal'), url: Link.regex(/^https?:\/\//i) });

/** The Copy button was clicked. */
const CopyMessage = z.object({ type: z.literal('copy') });

/** A state button beside a finding was clicked. */
const SetFindingStateMessage = z.object({ type: z.literal('setFindingState'), id: FindingId, state: FindingState });

/** A finding's block was clicked: show its thread in the code. */
const RevealFindingMessage = z.object({ type: z.literal('revealFinding'), id: FindingId });

/** "Apply…" on a finding's suggestion: its finding and its place among the finding's suggestions. */
const ApplySuggestionMessage = z.object({
  type: z.literal('applySuggestion'),
  id: FindingId,
  index: z.number().int().min(0).max(999),
});

/** The box's free message to the assistant. */
const SendMessageMessage = z.object({
  type: z.literal('sendMessage'),
  text: z
    .string()
    .max(MAX_FEEDBACK_TEXT)
    .refine((text) => text.trim() !== ''),
});

/** The picker chose an earlier review (shown read-only), or the current one again (no revision). */
const OpenEarlierMessage = z.object({ type: z.literal('openEarlier'), revision: Revision.min(1).optional() });

/** "Restore as current" on an earlier review. */
const RestoreEarlierMessage = z.object({ type: z.literal('restoreEarlier'), revision: Revision.min(1) });

/** "Compare with previous" for the review shown. */
const CompareMessage = z.object({ type: z.literal('compare') });

/** A tab was clicked: show that assistant's review. */
const SelectTabMessage = z.object({ type: z.literal('selectTab'), key: TabKey });

/**
 * The answer to a `whoFocused`: whether a pointer or a key went down in the panel, or it gained
 * the focus, since Redline began to show an editor; and whether the page has the keyboard. An answer
 * of neither may be followed by "the user" for the same question, once the page gets the keyboard.
 */
const FocusAnswerMessage = z.object({
  type: z.literal('focusAnswer'),
  question: z.number().int().nonnegative(),
  byUser: z.boolean(),
  hasKeyboard: z.boolean(),
});

/** The panel's page still had the keyboard when Redline showed an editor (editor/editorInFront.ts). */
const KeyboardKeptMessage = z.object({ type: z.literal('keyboardKept') });

export const WebviewToHostMessage = z.discriminatedUnion('type', [
  ReadyMessage,
  RenderedMessage,
  SliceAddedMessage,
  OpenReferenceMessage,
  OpenExternalMessage,
  CopyMessage,
  SetFindingStateMessage,
  RevealFindingMessage,
  ApplySuggestionMessage,
  SendMessageMessage,
  OpenEarlierMessage,
  RestoreEarlierMessage,
  CompareMessage,
  SelectTabMessage,
  FocusAnswerMessage,
  KeyboardKeptMessage,
]);
export type WebviewToHostMessage = z.infer<typeof WebviewToHostMessage>;

/** A message from the webview, or `undefined` when it is not one the host acts on. Unknown fields are dropped. */
export function parseWebviewMessage(value: unknown): WebviewToHostMessage | undefined {
  const parsed = WebviewToHostMessage.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
