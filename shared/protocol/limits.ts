// What both sides agree on before any message: the protocol version, the sizes a message may
// have, and the error codes an answer may carry (IpcError carries one across the socket).

/** 2: the hello carries a nonce, and both ends prove they hold the token (shared/authProof.ts). */
export const PROTOCOL_VERSION = 2;
export const MAX_REVIEW_BYTES = 10 * 1024 * 1024;
/**
 * A present-review this large takes long enough to be worth following, where a smaller one is done
 * within a progress update or two. The window renders such a review before showing it, so that a
 * cancel can stop it (extension/src/bridge/presentReview.ts), and the MCP server asks for its progress.
 */
export const LARGE_REVIEW_BYTES = 256 * 1024;
/** Bounds on the other strings of present-review, so that the frame limit below can cover it. */
export const MAX_SECTION_CHARS = 1000;
export const MAX_CWD_CHARS = 4096;
/** An assistant's name (MCP clientInfo) is cut to this many characters before it is sent. */
export const MAX_ASSISTANT_CHARS = 200;
/**
 * The largest line either side accepts after the handshake. It must hold the largest request the
 * schema accepts once JSON-escaped: JSON.stringify writes a control character (1 UTF-8 byte) as
 * six bytes (`\u0001`) and a lone surrogate (3 bytes) as six, so 6x the review's bytes is the
 * worst case; the megabyte covers the title, section, cwd (6x their UTF-16 length at most) and
 * the envelope. A review the schema accepts is then never cut off by the framing.
 */
export const MAX_FRAME_BYTES = 6 * MAX_REVIEW_BYTES + 1024 * 1024;
/** Findings a review lists at most, each with a thread and a read of its lines; an import brings no more. */
export const MAX_FINDINGS = 1000;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The longest a client may wait for one request (REDLINE_TIMEOUT_MS), and so the longest the window works on it. */
export const MAX_REQUEST_TIMEOUT_MS = 600_000;

export const ErrorCode = {
  ParseError: -32700,
  InvalidMessage: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  Unauthorized: 4001,
  LineTooLong: 4002,
  Cancelled: 4003,
  Timeout: 4004,
  Disconnected: 4005,
  NotConfigured: 4006,
  Unreachable: 4007,
  NotFound: 4008,
  /** A request too large to send; the message says how large and how to split it. */
  TooLarge: 4009,
  /** Too many requests in flight on one connection; retry when some have answered. */
  Busy: 4010,
  /** The two ends speak different protocol versions. */
  VersionMismatch: 4011,
  /** The user said no (e.g. to opening a file outside the workspace). */
  Refused: 4012,
  /**
   * The window's token changed: this connection only finishes what it was running. The request
   * was not run; the client sends it again on a new connection, without its caller noticing.
   */
  Retired: 4013,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that crosses the socket: it has a code the other side can act on. */
export class IpcError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IpcError';
  }
}
