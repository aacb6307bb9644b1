// A render worker for the budget bench: runs the render worker's own job (renderJob.ts), or
// markdown-it alone on the same text as the floor, and reports the time and its isolate's heap.

import { parentPort } from 'worker_threads';
import { getHeapStatistics } from 'v8';
import MarkdownIt from 'markdown-it';
import { LineCountCache } from '../extension/src/render/fileFacts';
import { runRenderJob } from '../extension/src/render/renderJob';

export interface BudgetWorkerRequest {
  readonly markdown: string;
  readonly roots: readonly string[];
  readonly engine: 'redline' | 'markdown-it';
}

export interface BudgetWorkerReply {
  readonly ms: number;
  readonly shown: boolean;
  /** The refusal, or the page's size and slices. */
  readonly detail: string;
  readonly heapTotalMiB: number;
}

const MiB = 1024 * 1024;

parentPort!.on('message', async ({ markdown, roots, engine }: BudgetWorkerRequest) => {
  const started = performance.now();
  let shown = true;
  let detail: string;
  try {
    if (engine === 'markdown-it') {
      detail = `${(new MarkdownIt({ linkify: true }).render(markdown).length / MiB).toFixed(1)} MiB of HTML`;
    } else {
      const rendered = await runRenderJob({ markdown, roots, withSections: true }, new LineCountCache());
      detail = `${(rendered.html.length / MiB).toFixed(1)} MiB of HTML in ${(rendered.slices?.length ?? 0) + 1} slices`;
    }
  } catch (error) {
    shown = false;
    detail = error instanceof Error ? error.message : String(error);
  }
  const ms = performance.now() - started;
  parentPort!.postMessage({
    ms,
    shown,
    detail,
    heapTotalMiB: getHeapStatistics().total_heap_size / MiB,
  } satisfies BudgetWorkerReply);
});
