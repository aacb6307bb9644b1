// Runs each SARIF import in a worker thread of its own (dist/sarifImportWorker.js), so that the
// extension host's thread, which every extension in the window shares, only receives the finished
// review: the file's read, its parse, the checks, the workspace's listing and the markdown all
// happen in the worker. The worker's heap is capped and its time bounded; it ends with its import,
// giving back its memory. Imports are rare and each is one job, so no worker is kept.

import { Worker } from 'worker_threads';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { SarifImportRequest } from '../../../shared/exchange/importRequest';
import { ImportRequestError } from '../../../shared/exchange/importRequest';
import type { ImportJob, ImportJobReply } from './importJob';

/** The worker's heap, in MiB: a log within the byte limit needs far less; a hostile one fails its import, never the window. */
export const IMPORT_WORKER_HEAP_MB = 1024;
/** An import still running after this long is stopped. */
export const IMPORT_TIMEOUT_MS = 120_000;

export interface SarifImportRunnerOptions {
  readonly maxHeapMb?: number;
  readonly timeoutMs?: number;
}

export class SarifImportRunner extends Disposable {
  private readonly running = new Set<Worker>();

  constructor(
    private readonly workerFile: string,
    private readonly options: SarifImportRunnerOptions = {},
  ) {
    super();
    this.register(
      toDisposable(async () => {
        await Promise.all([...this.running].map((worker) => worker.terminate()));
      }),
    );
  }

  /** The import's request; rejects with an ImportRequestError (the log's fault, with what to do) or another error. */
  run(job: ImportJob): Promise<SarifImportRequest> {
    if (this.isDisposed) return Promise.reject(new Error('Redline is shutting down; open the log again later.'));
    const worker = new Worker(this.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? IMPORT_WORKER_HEAP_MB },
    });
    this.running.add(worker);
    return new Promise<SarifImportRequest>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.running.delete(worker);
        void worker.terminate();
        outcome();
      };
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new ImportRequestError(
                `${job.name} took more than ${Math.round((this.options.timeoutMs ?? IMPORT_TIMEOUT_MS) / 1000)} s to read, and was stopped. Filter it to fewer results and open it again.`,
              ),
            ),
          ),
        this.options.timeoutMs ?? IMPORT_TIMEOUT_MS,
      );
      worker.once('message', (reply: ImportJobReply) =>
        settle(() => {
          if (reply.ok) resolve(reply.request);
          else reject(reply.refused ? new ImportRequestError(reply.message) : new Error(reply.message));
        }),
      );
      worker.once('error', (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new ImportRequestError(
                  `${job.name} needs more memory to read than a log may take (${this.options.maxHeapMb ?? IMPORT_WORKER_HEAP_MB} MiB). Filter it to fewer results and open it again.`,
                )
              : error,
          ),
        ),
      );
      worker.once('exit', (code) =>
        settle(() => reject(new Error(`The import stopped before it finished (its worker exited with ${code}).`))),
      );
      worker.postMessage(job);
    });
  }
}
