// What the window tells connected MCP servers without being asked, and whose review an event is about.

import { z } from 'zod';
import { MAX_ASSISTANT_CHARS } from './limits';

/**
 * Whose review an event is about: the assistant's name (absent while the window's first review
 * has none), and `primary` for the window's first review, which calls without a name reach. Each
 * MCP server passes on only its own assistant's events (see reviewEventIsFor).
 */
const ReviewOwner = { assistant: z.string().max(MAX_ASSISTANT_CHARS).optional(), primary: z.boolean().optional() };

/** Events the extension pushes to every connected MCP server. */
export const events = {
  'review-changed': z.object({ revision: z.number().int().min(0), ...ReviewOwner }),
  /** The user gave feedback; `cursor` is the newest item's id. */
  'feedback-added': z.object({ cursor: z.string(), ...ReviewOwner }),
  /** An assistant's earlier reviews changed: one was added (a replace, a clear) or trimmed. */
  'history-changed': z.object({ ...ReviewOwner }),
  /** The window's token changed: send new requests on a new connection; this one answers what it runs, then closes. */
  'connection-retiring': z.object({}),
  /** The user's selection or active editor changed; read it with get-selection. Sent at most a few times a second. */
  'selection-changed': z.object({}),
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

/**
 * Whether a review event is about the review of the assistant named `name` (undefined: a client
 * that gave none, whose calls reach the window's first review). An event that names no owner, or
 * is about a first review no assistant has claimed yet, is everyone's.
 */
export function reviewEventIsFor(payload: unknown, name: string | undefined): boolean {
  const owner = (typeof payload === 'object' && payload !== null ? payload : {}) as {
    assistant?: unknown;
    primary?: unknown;
  };
  if (owner.assistant === undefined) return owner.primary === undefined || owner.primary === true;
  return owner.assistant === name || (name === undefined && owner.primary === true);
}
