// Runs renders in worker threads, so that a review's parse, file checks, findings and HTML never
// hold the extension host's thread, which every extension in the window shares. Workers start when
// the first render needs one, each runs one job at a time, and an idle one ends after a while. A
// cancel terminates the job's worker; a worker that crashes (or runs out of memory) fails only its
// job. A small render (a short review, one append) stays on this thread: it costs less than a
// worker's round trip.

import { Worker } from 'worker_threads';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { RenderBudgetError } from './pageBudget';
import { joinSlices, type SlicedPage } from './pageSlices';
import {
  InThreadRenderEngine,
  type RenderControl,
  type RenderEngine,
  type RenderJob,
  type RenderOutcome,
  type RenderReply,
  type RenderRequest,
} from './renderJob';

export interface RenderWorkerPoolOptions {
  /** Workers at most: two renders (two assistants) at once without one waiting for the other. */
  readonly size?: number;
  /** An idle worker ends after this long, giving its memory back. */
  readonly idleMs?: number;
  /** Each worker's heap: a review that needs more fails its call, never the window. */
  readonly maxHeapMb?: number;
  /**
   * Markdown shorter than this (in UTF-16 units) renders on this thread, where a worker's round
   * trip would cost more than the render. Kept small: the host's thread rarely renders, so its
   * code is cold there.
   */
  readonly inThreadBelow?: number;
}

/**
 * Each worker's heap, in MiB: a backstop under the render budget, which keeps what it accepts well
 * within this (bench/budget.mjs). Two renders at once take at most twice this; a worker that
 * reaches it fails its call with a refusal, never the window.
 */
export const RENDER_WORKER_HEAP_MB = 1536;

/** The default of `inThreadBelow`. */
export const IN_THREAD_BELOW_CHARS = 4 * 1024;

const DEFAULTS = { size: 2, idleMs: 60_000, maxHeapMb: RENDER_WORKER_HEAP_MB, inThreadBelow: IN_THREAD_BELOW_CHARS };

/** The worker stopped while it rendered: it crashed, ran out of memory, or was terminated. */
export class RenderWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderWorkerError';
  }
}

interface PooledWorker {
  readonly worker: Worker;
  idleTimer?: NodeJS.Timeout;
}

/** A render waiting for a worker: given one, or failed when the pool shuts down. */
interface Waiter {
  readonly grant: (worker: PooledWorker) => void;
  readonly fail: (error: Error) => void;
}

/** Disposing it ends every worker; renders in flight fail, and so do renders still waiting for a worker. */
export class RenderWorkerPool extends Disposable implements RenderEngine {
  private readonly options: typeof DEFAULTS;
  private readonly idle: PooledWorker[] = [];
  private readonly busy = new Set<PooledWorker>();
  /** Renders waiting for a worker, oldest first. */
  private readonly waiting: Waiter[] = [];
  private nextId = 0;
  private readonly inThread = this.register(new InThreadRenderEngine());
  /** Workers started so far: a crashed one is replaced, which tests and the bench can see. */
  started = 0;

  constructor(
    private readonly script: string,
    options: RenderWorkerPoolOptions = {},
  ) {
    super();
    this.options = { ...DEFAULTS, ...options };
    this.register(toDisposable(() => this.endAll()));
  }

  async render(job: RenderJob, control: RenderControl = {}): Promise<RenderOutcome> {
    const { signal, onProgress, onSlice } = control;
    signal?.throwIfAborted();
    if (job.markdown.length < this.options.inThreadBelow) return this.inThread.render(job, control);
    const pooled = await this.acquire(signal);
    const { worker } = pooled;
    const id = ++this.nextId;
    const streamed = onSlice && new StreamedSlices(onSlice);
    return new Promise<RenderOutcome>((resolve, reject) => {
      const finish = (outcome: () => void, workerIsUsable: boolean) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (workerIsUsable) this.release(pooled);
        else this.discard(pooled);
        outcome();
      };
      const onMessage = (reply: RenderReply) => {
        if (reply.id !== id) return;
        if (reply.kind === 'progress') onProgress?.(reply.step);
        else if (reply.kind === 'chunk') streamed?.add(reply.html);
        else if (reply.kind === 'done')
          finish(() => resolve(streamed ? { ...reply.rendered, ...streamed.page() } : reply.rendered), true);
        else
          finish(
            () =>
              reject(
                reply.name === 'RenderBudgetError' ? new RenderBudgetError(reply.message) : new Error(reply.message),
              ),
            true,
          );
      };
      const onError = (error: Error & { code?: string }) => finish(() => reject(workerFailure(error)), false);
      const onExit = (code: number) =>
        finish(
          () =>
            reject(
              new RenderWorkerError(
                `Redline's renderer stopped (exit code ${code}) before the review was rendered. Try again.`,
              ),
            ),
          false,
        );
      const onAbort = () => finish(() => reject(signal!.reason), false);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, job, stream: streamed !== undefined } satisfies RenderRequest);
    });
  }

  /**
   * Starts a worker ahead of need, when none is running: a worker's first render also loads its
   * code, which an assistant's first large review would otherwise wait for.
   */
  warm(): void {
    if (this.isDisposed || this.idle.length > 0 || this.busy.size > 0) return;
    this.release(this.spawn());
  }

  /** Fails the waiting renders and ends every worker, resolving once each has exited. */
  private async endAll(): Promise<void> {
    for (const waiter of this.waiting.splice(0)) waiter.fail(shutDown());
    const workers = [...this.idle, ...this.busy];
    for (const pooled of workers) this.discard(pooled);
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }

  private acquire(signal: AbortSignal | undefined): Promise<PooledWorker> {
    if (this.isDisposed) return Promise.reject(shutDown());
    const ready = this.idle.pop();
    if (ready) {
      clearTimeout(ready.idleTimer);
      this.busy.add(ready);
      return Promise.resolve(ready);
    }
    if (this.busy.size < this.options.size) return Promise.resolve(this.spawn());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (pooled) => {
          signal?.removeEventListener('abort', giveUp);
          resolve(pooled);
        },
        fail: (error) => {
          signal?.removeEventListener('abort', giveUp);
          reject(error);
        },
      };
      const giveUp = () => {
        // Only a waiter still in the queue leaves it: one already served or failed has settled.
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(waiter);
    });
  }

  private spawn(): PooledWorker {
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb } });
    // An idle worker must not keep the extension host (or a test run) alive.
    worker.unref();
    // Between jobs a worker that dies is simply not reused.
    worker.on('error', () => undefined);
    const pooled: PooledWorker = { worker };
    worker.once('exit', () => this.forget(pooled));
    this.started++;
    this.busy.add(pooled);
    return pooled;
  }

  private release(pooled: PooledWorker): void {
    // A job that ends after the pool shut down does not keep its worker.
    if (this.isDisposed) return this.discard(pooled);
    this.busy.delete(pooled);
    const next = this.waiting.shift();
    if (next) {
      this.busy.add(pooled);
      next.grant(pooled);
      return;
    }
    pooled.idleTimer = setTimeout(() => this.discard(pooled), this.options.idleMs);
    pooled.idleTimer.unref();
    this.idle.push(pooled);
  }

  private discard(pooled: PooledWorker): void {
    this.forget(pooled);
    void pooled.worker.terminate();
    // A render that waited for this worker's place gets a new one (none wait once the pool is shut down).
    const next = this.isDisposed ? undefined : this.waiting.shift();
    if (next) next.grant(this.spawn());
  }

  private forget(pooled: PooledWorker): void {
    clearTimeout(pooled.idleTimer);
    this.busy.delete(pooled);
    const at = this.idle.indexOf(pooled);
    if (at >= 0) this.idle.splice(at, 1);
  }
}

/** A page that arrives slice by slice: each is passed on at once, and the whole is put together at the end. */
class StreamedSlices {
  private readonly slices: string[] = [];

  constructor(private readonly onSlice: (html: string) => void) {}

  add(html: string): void {
    this.slices.push(html);
    this.onSlice(html);
  }

  page(): SlicedPage {
    return joinSlices(this.slices);
  }
}

function shutDown(): RenderWorkerError {
  return new RenderWorkerError(
    "Redline's renderer shut down with its window before the review was rendered. Try again in an open window.",
  );
}

/** A worker out of its heap is the review's cost, refused as the budget refuses (TooLarge), not a fault to retry. */
function workerFailure(error: Error & { code?: string }): RenderWorkerError | RenderBudgetError {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new RenderBudgetError(
      'The review needs more memory to render than Redline allows, so it was not shown. Split it into smaller reviews (mode "append").',
    );
  }
  return new RenderWorkerError(
    `Redline's renderer failed (${error.message}) before the review was rendered. Try again.`,
  );
}
