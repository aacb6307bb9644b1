// Runs SARIF imports in a worker thread of their own (dist/sarifImportWorker.js), so that the
// extension host's thread, which every extension in the window shares, only receives the finished
// review: the file's read, its parse, the checks, the workspace's listing and the markdown all
// happen in the worker. Its heap is capped and each import's time bounded. The worker starts for the
// first import, runs one at a time, and ends once idle: not at once, because a worker that ends with
// the heap of a large log still in it holds the host's thread while its memory is given back, where
// one left idle for a while has already collected it.

import { Worker } from 'worker_threads';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { ImportRequestError, type SarifImportRequest } from '../../../shared/exchange/importRequest';
import type { ImportJob, ImportJobReply } from './importJob';

/** The worker's heap, in MiB: a log within the byte limit needs far less; a hostile one fails its import, never the window. */
export const IMPORT_WORKER_HEAP_MB = 1024;
/** An import still running after this long is stopped. */
export const IMPORT_TIMEOUT_MS = 120_000;
/** An idle worker ends after this long. */
const IDLE_MS = 20_000;

export interface SarifImportRunnerOptions {
  readonly maxHeapMb?: number;
  readonly timeoutMs?: number;
  readonly idleMs?: number;
}

interface Running {
  readonly job: ImportJob;
  readonly resolve: (request: SarifImportRequest) => void;
  readonly reject: (error: Error) => void;
}

export class SarifImportRunner extends Disposable {
  private worker: Worker | undefined;
  /** The import the worker is on: its timer, and the worker it was sent to. */
  private current: (Running & { readonly timer: NodeJS.Timeout; readonly worker: Worker }) | undefined;
  private readonly queue: Running[] = [];
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly workerFile: string,
    private readonly options: SarifImportRunnerOptions = {},
  ) {
    super();
    this.register(
      toDisposable(async () => {
        clearTimeout(this.idleTimer);
        const stopped = new Error('Redline is shutting down; open the log again later.');
        for (const waiting of this.queue.splice(0)) waiting.reject(stopped);
        this.finish(undefined, (running) => running.reject(stopped));
        await this.stopWorker();
      }),
    );
  }

  /** Whether a worker is running (busy, or idle until it ends): for tests that wait for it to end. */
  get hasWorker(): boolean {
    return this.worker !== undefined;
  }

  /** The import's request; rejects with an ImportRequestError (the log's fault, with what to do) or another error. */
  run(job: ImportJob): Promise<SarifImportRequest> {
    if (this.isDisposed) return Promise.reject(new Error('Redline is shutting down; open the log again later.'));
    return new Promise<SarifImportRequest>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.current || this.queue.length === 0) return;
    clearTimeout(this.idleTimer);
    const running = this.queue.shift()!;
    const worker = this.running();
    const timeoutMs = this.options.timeoutMs ?? IMPORT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      void this.stopWorker();
      this.finish(worker, (stopped) =>
        stopped.reject(
          new ImportRequestError(
            `${stopped.job.name} took more than ${Math.round(timeoutMs / 1000)} s to read, and was stopped. Filter it to fewer results and open it again.`,
          ),
        ),
      );
    }, timeoutMs);
    this.current = { ...running, timer, worker };
    worker.postMessage(running.job);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? IMPORT_WORKER_HEAP_MB },
    });
    worker.on('message', (reply: ImportJobReply) =>
      this.finish(worker, (running) => {
        if (reply.ok) running.resolve(reply.request);
        else running.reject(reply.refused ? new ImportRequestError(reply.message) : new Error(reply.message));
      }),
    );
    worker.on('error', (error: Error & { code?: string }) => {
      this.forget(worker);
      this.finish(worker, (running) =>
        running.reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ImportRequestError(
                `${running.job.name} needs more memory to read than a log may take (${this.options.maxHeapMb ?? IMPORT_WORKER_HEAP_MB} MiB). Filter it to fewer results and open it again.`,
              )
            : error,
        ),
      );
    });
    worker.on('exit', (code) => {
      this.forget(worker);
      this.finish(worker, (running) =>
        running.reject(new Error(`The import stopped before it finished (its worker exited with ${code}).`)),
      );
    });
    this.worker = worker;
    return worker;
  }

  /**
   * Settles the import `worker` is on, if any, and starts the next; an idle worker is left to end by
   * itself. What a worker already let go of says (its exit, after a timeout) settles nothing.
   */
  private finish(worker: Worker | undefined, settle: (running: Running) => void): void {
    const running = this.current;
    if (!running || (worker !== undefined && running.worker !== worker)) return;
    this.current = undefined;
    clearTimeout(running.timer);
    settle(running);
    if (this.queue.length > 0) this.next();
    else if (this.worker && !this.isDisposed) {
      this.idleTimer = setTimeout(() => void this.stopWorker(), this.options.idleMs ?? IDLE_MS);
      // An idle worker must never keep a window's host alive.
      this.idleTimer.unref();
    }
  }

  private forget(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
