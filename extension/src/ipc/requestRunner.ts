// Runs one connection's requests side by side, each with a deadline, so that one handler that never
// settles cannot hold up the others. Handlers are called in arrival order (the review store orders
// its own changes). Past `maxInFlight`, requests wait in a short queue while the connection stops
// reading (`onSaturated`); past that queue, a request is refused as busy. An observer (the Activity
// view) sees each request from its arrival to its answer. Progress goes out only if the client
// asked, at a bounded rate, and never after the reply.

import {
  ErrorCode,
  IpcError,
  describeIssues,
  isMethod,
  MAX_PROGRESS_MESSAGE_CHARS,
  methods,
  type ProgressUpdate,
  type RequestMessage,
} from '../../../shared/protocol';
import { ProgressThrottle } from '../../../shared/progressThrottle';
import type { Logger } from '../../../shared/logger';
import type {
  ObservedRequest,
  RequestContext,
  RequestHandlers,
  RequestObserver,
  RequestOutcome,
  RequestStatus,
} from './requestContract';

/** At most 40 progress messages a second for one request, besides the few that start a step. */
export const WINDOW_PROGRESS_INTERVAL_MS = 25;

/** How much longer than the client's own timeout the window works on a request (see start()). */
export const CLIENT_DEADLINE_GRACE_MS = 1_000;

export interface RequestRunnerOptions {
  readonly connectionId: number;
  readonly handlers: RequestHandlers;
  readonly maxInFlight: number;
  /** Requests that may wait for a free slot; the connection stops reading while any wait. */
  readonly maxQueued: number;
  /** Overrides each method's own `timeoutMs` from the method table. */
  readonly requestTimeoutMs?: number;
  readonly log: Logger;
  readonly observer?: RequestObserver;
  /** Writes a progress message for a request that asked for it. */
  readonly sendProgress?: (id: string, update: ProgressUpdate) => void;
}

export type Reply =
  { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

/** A request from its arrival on: what the observer is told, and when it arrived (monotonic). */
interface Tracked {
  readonly request: RequestMessage;
  readonly observed: ObservedRequest;
  readonly arrived: number;
}

interface InFlight extends Tracked {
  readonly controller: AbortController;
  readonly timer: NodeJS.Timeout;
  /** Only when the client asked for progress. */
  readonly progress: ProgressThrottle<ProgressUpdate> | undefined;
  /** Past the handler's commit(): a cancel is too late. */
  committed: boolean;
}

export class RequestRunner {
  /** Only requests that are running: a cancel for any other id is ignored, so nothing else is kept. */
  private readonly inFlight = new Map<string, InFlight>();
  /** Requests received while every slot was taken, in arrival order. */
  private queue: Tracked[] = [];

  constructor(
    private readonly options: RequestRunnerOptions,
    private readonly reply: (id: string, reply: Reply) => void,
    /** True when requests start to wait for a slot, false when the last one has started. */
    private readonly onSaturated: (saturated: boolean) => void = () => undefined,
  ) {}

  get size(): number {
    return this.inFlight.size;
  }

  /** Nothing running and nothing waiting. */
  get idle(): boolean {
    return this.inFlight.size === 0 && this.queue.length === 0;
  }

  /** Runs the request now, or queues it when every slot is taken. */
  submit(request: RequestMessage): void {
    const tracked = this.track(request);
    if (this.inFlight.size < this.options.maxInFlight && this.queue.length === 0) return this.start(tracked);
    if (this.queue.length >= this.options.maxQueued) {
      return this.fail(
        tracked,
        ErrorCode.Busy,
        `VS Code is busy with ${this.inFlight.size + this.queue.length} requests from this connection; retry when some have answered.`,
      );
    }
    this.queue.push(tracked);
    if (this.queue.length === 1) this.onSaturated(true);
  }

  private start(tracked: Tracked): void {
    const { request } = tracked;
    const { id, method } = request;
    if (this.inFlight.has(id))
      return this.fail(tracked, ErrorCode.InvalidMessage, `Request id "${id}" is already in use by a running request.`);
    if (!isMethod(method)) return this.fail(tracked, ErrorCode.MethodNotFound, `Unknown method "${method}".`);
    const params = methods[method].params.safeParse(request.params ?? {});
    if (!params.success)
      return this.fail(
        tracked,
        ErrorCode.InvalidParams,
        `Invalid params for ${method}: ${describeIssues(params.error)}`,
      );

    // As long as the client waits, when it says (a little longer, so that its own timeout, and the
    // cancel it sends then, speak first); the window's setting and the method's default otherwise.
    const timeoutMs =
      request.timeoutMs !== undefined
        ? request.timeoutMs + CLIENT_DEADLINE_GRACE_MS
        : (this.options.requestTimeoutMs ?? methods[method].timeoutMs);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      this.options.log.warn('request-timed-out', { connection: this.options.connectionId, method, timeoutMs });
      this.finish(id, {
        error: {
          code: ErrorCode.Timeout,
          message: `VS Code did not finish ${method} within ${timeoutMs} ms. Try again; if it keeps happening, the window may be busy.`,
        },
      });
    }, timeoutMs);
    const progress =
      request.progress && this.options.sendProgress ? this.progressFor(id, this.options.sendProgress) : undefined;
    const entry: InFlight = { ...tracked, controller, timer, progress, committed: false };
    this.inFlight.set(id, entry);
    const context: RequestContext = {
      signal: controller.signal,
      connectionId: this.options.connectionId,
      progress: (update, options) =>
        options?.newStep ? entry.progress?.sendNow(update) : entry.progress?.report(update),
      commit: () => (entry.committed = true),
    };
    const handler = this.options.handlers[method] as (p: unknown, c: RequestContext) => unknown;
    let outcome: Promise<unknown>;
    try {
      outcome = Promise.resolve(handler(params.data, context));
    } catch (error) {
      outcome = Promise.reject(error);
    }
    outcome.then(
      (result) => this.finish(id, { result }, controller),
      (error: unknown) => this.finish(id, { error: this.describeFailure(method, error) }, controller),
    );
  }

  /**
   * Stops a running or waiting request and answers it as cancelled at once. A request whose handler
   * has committed goes on: its effect is already visible and will be kept, and its reply says so.
   */
  cancel(id: string): void {
    const waiting = this.queue.findIndex((tracked) => tracked.request.id === id);
    if (waiting !== -1) {
      const [tracked] = this.queue.splice(waiting, 1);
      this.fail(tracked, ErrorCode.Cancelled, 'Cancelled by the client.');
      if (this.queue.length === 0) this.onSaturated(false);
      return;
    }
    const running = this.inFlight.get(id);
    if (running?.committed) {
      this.options.log.debug('cancel-after-commit', {
        connection: this.options.connectionId,
        method: running.request.method,
      });
      return;
    }
    this.finish(id, { error: { code: ErrorCode.Cancelled, message: 'Cancelled by the client.' } });
  }

  /** Answers every request still waiting for a slot with this error, unrun; those running go on. */
  refuseWaiting(code: number, message: string): void {
    const waiting = this.queue;
    if (waiting.length === 0) return;
    this.queue = [];
    for (const tracked of waiting) this.fail(tracked, code, message);
    this.onSaturated(false);
  }

  /** The connection is gone: abort every handler, answer nothing. */
  abortAll(): void {
    const dropped: Tracked[] = [...this.inFlight.values(), ...this.queue];
    for (const { controller, timer, progress } of this.inFlight.values()) {
      clearTimeout(timer);
      progress?.close();
      controller.abort();
    }
    this.inFlight.clear();
    this.queue = [];
    const gone = { code: ErrorCode.Disconnected, message: 'The connection closed before VS Code answered.' };
    for (const tracked of dropped) this.settle(tracked, { error: gone });
  }

  /**
   * Answers a request once. `from` is the run that produced the answer: a late result from a run
   * that was already answered (timed out, cancelled) is dropped, even if its id was reused since.
   */
  private finish(id: string, reply: Reply, from?: AbortController): void {
    const entry = this.inFlight.get(id);
    if (!entry || (from && entry.controller !== from)) return;
    this.inFlight.delete(id);
    clearTimeout(entry.timer);
    // Before the reply is written: nothing of this request's progress may follow it.
    entry.progress?.close();
    if ('error' in reply) entry.controller.abort();
    this.reply(id, reply);
    this.settle(entry, reply);
    this.startWaiting();
  }

  /**
   * A handler's progress, checked and cut to what the wire accepts. The MCP server holds what it
   * passes on to ten a second; here the interval is shorter, because an update that must wait for
   * its slot waits behind whatever synchronous work the handler does next (a long parse),
   * and would reach the client only after it.
   */
  private progressFor(
    id: string,
    send: (id: string, update: ProgressUpdate) => void,
  ): ProgressThrottle<ProgressUpdate> {
    return new ProgressThrottle((update: ProgressUpdate) => {
      const { progress, total, message } = update;
      if (!Number.isFinite(progress) || progress < 0 || (total !== undefined && !(Number.isFinite(total) && total > 0)))
        return;
      send(id, {
        progress,
        ...(total !== undefined ? { total } : {}),
        message: String(message).slice(0, MAX_PROGRESS_MESSAGE_CHARS),
      });
    }, WINDOW_PROGRESS_INTERVAL_MS);
  }

  private startWaiting(): void {
    if (this.queue.length === 0) return;
    while (this.queue.length > 0 && this.inFlight.size < this.options.maxInFlight) this.start(this.queue.shift()!);
    if (this.queue.length === 0) this.onSaturated(false);
  }

  private fail(tracked: Tracked, code: number, message: string): void {
    const reply = { error: { code, message } };
    this.reply(tracked.request.id, reply);
    this.settle(tracked, reply);
  }

  private track(request: RequestMessage): Tracked {
    const observed: ObservedRequest = {
      connectionId: this.options.connectionId,
      id: request.id,
      method: request.method,
      client: request.client,
      receivedAt: Date.now(),
    };
    this.tell(() => this.options.observer?.onRequestStarted?.(observed));
    return { request, observed, arrived: performance.now() };
  }

  private settle(tracked: Tracked, reply: Reply): void {
    const error = 'error' in reply ? reply.error : undefined;
    const status: RequestStatus = !error
      ? 'ok'
      : error.code === ErrorCode.Cancelled || error.code === ErrorCode.Disconnected
        ? 'cancelled'
        : 'error';
    const outcome: RequestOutcome = {
      status,
      durationMs: performance.now() - tracked.arrived,
      ...(error ? { error } : {}),
    };
    this.tell(() => this.options.observer?.onRequestSettled?.(tracked.observed, outcome));
  }

  /** An observer's failure is its own: the request goes on as if it were not there. */
  private tell(notify: () => void): void {
    try {
      notify();
    } catch (error) {
      this.options.log.warn('observer-failed', { connection: this.options.connectionId, error });
    }
  }

  private describeFailure(method: string, error: unknown): { code: number; message: string } {
    if (error instanceof IpcError) return { code: error.code, message: error.message };
    this.options.log.warn('handler-failed', { connection: this.options.connectionId, method, error });
    return {
      code: ErrorCode.Internal,
      message: `Redline failed to handle ${method}: ${(error as Error)?.message ?? error}`,
    };
  }
}
