// What a request handler and a request observer get from the IPC layer: the context a handler runs
// in, the table of handlers (one per method, so a missing one is a compile error), and what an
// observer is told of each request.

import type { Method, ProgressUpdate, ResultOf, ValidParamsOf } from '../../../shared/protocol';

export interface RequestContext {
  /** Aborted when the client cancels the request (before commit()), its deadline passes, or it disconnects. */
  readonly signal: AbortSignal;
  readonly connectionId: number;
  /**
   * Tells the client how far the request has come, if it asked; otherwise, and once answered,
   * nothing. Updates within a step are held to one per WINDOW_PROGRESS_INTERVAL_MS; one marked
   * `newStep` goes at once (a handler has only a handful of steps).
   */
  readonly progress: (update: ProgressUpdate, options?: { readonly newStep?: boolean }) => void;
  /**
   * The request's effect is now visible and will be kept (e.g. a review shown and being saved):
   * from here a cancel no longer aborts it, and it is answered with its real result, so that the
   * window's record says what happened. Its deadline and its connection's end still abort it.
   */
  readonly commit: () => void;
}

export type RequestHandlers = {
  [M in Method]: (params: ValidParamsOf<M>, context: RequestContext) => Promise<ResultOf<M>> | ResultOf<M>;
};

/** A request as an observer sees it: the same object at its start and at its end. */
export interface ObservedRequest {
  readonly connectionId: number;
  /** The MCP server's id for it (a UUID), which its own log carries too: the correlation id. */
  readonly id: string;
  /** As sent: it may name no method, when the request is refused for that. */
  readonly method: string;
  /** The assistant (MCP client) that made it, when its MCP server said. */
  readonly client: string | undefined;
  /** When it arrived, in ms since the epoch. */
  readonly receivedAt: number;
}

export type RequestStatus = 'ok' | 'error' | 'cancelled';

export interface RequestOutcome {
  readonly status: RequestStatus;
  /** From its arrival to its answer, waiting for a slot included. */
  readonly durationMs: number;
  readonly error?: { readonly code: number; readonly message: string };
}

/**
 * Told of every request, synchronously: when it arrives, and once when it is answered, refused,
 * cancelled or dropped with its connection. What it throws is logged and otherwise ignored.
 */
export interface RequestObserver {
  onRequestStarted?(request: ObservedRequest): void;
  onRequestSettled?(request: ObservedRequest, outcome: RequestOutcome): void;
}
