// The messages on the socket: the handshake (hello, auth), requests, cancels, responses,
// events and progress, one JSON object per line (shared/framing.ts).

import { z } from 'zod';
import { MAX_ASSISTANT_CHARS, MAX_REQUEST_TIMEOUT_MS } from './limits';
import { Method, methods } from './methods';

const Id = z.string().min(1).max(64);

// The handshake (see shared/authProof.ts): the client sends `hello` with a fresh nonce; the
// server answers with a `Challenge` that proves it holds the token; only then does the client
// send `auth` with its own proof, answered by `HelloResult`. The token itself never crosses.

/** 32 random bytes, hex. */
const Nonce = z.string().regex(/^[0-9a-f]{64}$/);
/** An HMAC-SHA256, hex. */
const Proof = z.string().regex(/^[0-9a-f]{64}$/);

export const HelloMessage = z.object({
  type: z.literal('hello'),
  id: Id,
  clientNonce: Nonce,
  protocolVersion: z.number().int(),
  client: z.object({ name: z.string().max(200), version: z.string().max(50), pid: z.number().int() }),
});
export type HelloMessage = z.infer<typeof HelloMessage>;

/** The server's answer to a hello. */
export const Challenge = z.object({
  protocolVersion: z.number().int(),
  serverNonce: Nonce,
  serverProof: Proof,
});
export type Challenge = z.infer<typeof Challenge>;

export const AuthMessage = z.object({ type: z.literal('auth'), id: Id, clientProof: Proof });
export type AuthMessage = z.infer<typeof AuthMessage>;

/** The server's answer to an accepted auth: the connection is open for requests. */
export const HelloResult = z.object({
  protocolVersion: z.number().int(),
  server: z.object({ name: z.string(), version: z.string(), pid: z.number().int() }),
});
export type HelloResult = z.infer<typeof HelloResult>;

/**
 * Which assistant sent a request (its MCP clientInfo name), for the window's Activity view. Only a
 * label: one that is too long is cut rather than the request refused, and an empty one is absent.
 * Optional, so that requests from MCP servers that do not send it stay valid.
 */
export const RequestClient = z
  .string()
  .transform((name) => name.trim().slice(0, MAX_ASSISTANT_CHARS) || undefined)
  .optional();

export const RequestMessage = z.object({
  type: z.literal('request'),
  id: Id,
  method: z.string().max(100),
  params: z.unknown(),
  client: RequestClient,
  /**
   * How long the client waits for the reply; the window gives the handler as long, so that a
   * longer timeout configured for one tool in the MCP server is not cut short by the window's own.
   */
  timeoutMs: z.number().int().min(1).max(MAX_REQUEST_TIMEOUT_MS).optional(),
  /** The client follows this request's progress: the window may send `progress` messages for it. */
  progress: z.boolean().optional(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

export const CancelMessage = z.object({ type: z.literal('cancel'), id: Id });
export type CancelMessage = z.infer<typeof CancelMessage>;

export const ClientMessage = z.discriminatedUnion('type', [HelloMessage, AuthMessage, RequestMessage, CancelMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export const WireError = z.object({ code: z.number().int(), message: z.string() });

export const ResponseMessage = z.union([
  z.object({ type: z.literal('response'), id: Id, result: z.unknown() }).strict(),
  z.object({ type: z.literal('response'), id: Id.nullable(), error: WireError }).strict(),
]);
export type ResponseMessage = z.infer<typeof ResponseMessage>;

export const EventMessage = z.object({ type: z.literal('event'), event: z.string(), payload: z.unknown() });
export type EventMessage = z.infer<typeof EventMessage>;

export const MAX_PROGRESS_MESSAGE_CHARS = 200;

/**
 * How far a request the client follows has come: only for a request sent with `progress: true`, at
 * a bounded rate, never after its response. A client ignores one for an id it does not wait for.
 */
export const ProgressMessage = z.object({
  type: z.literal('progress'),
  id: Id,
  /** Increases from one message to the next; out of `total` when that is known. */
  progress: z.number().finite().min(0),
  total: z.number().finite().positive().optional(),
  message: z.string().max(MAX_PROGRESS_MESSAGE_CHARS),
});
export type ProgressMessage = z.infer<typeof ProgressMessage>;
export type ProgressUpdate = Omit<ProgressMessage, 'type' | 'id'>;

export const ServerMessage = z.union([ResponseMessage, EventMessage, ProgressMessage]);
export type ServerMessage = z.infer<typeof ServerMessage>;

export function isMethod(name: string): name is Method {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

/** The first problem zod found, as one readable sentence for an error reply. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
