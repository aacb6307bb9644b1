// One row of `node bench/budget.mjs`, in a process of its own: renders one input in a worker
// thread with the render worker's heap limit (or markdown-it alone, the floor, with room to finish)
// and prints the time, the worker's heap at the end, and the process's peak RSS as JSON.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { budgetRefusal } from '../shared/reviewBudget';
import { RENDER_WORKER_HEAP_MB } from '../extension/src/render/renderWorkerPool';
import { AUDIT_ROWS, denseReview, typicalReview, writeFixtureFiles } from './reviewFixtures';
import type { BudgetWorkerReply, BudgetWorkerRequest } from './budgetWorker';

const MiB = 1024 * 1024;
/** The floor's heap: enough for markdown-it to finish the audit's inputs (about 2 GB each). */
const FLOOR_HEAP_MB = 6144;

export const BENCH_ROWS: ReadonlyArray<{ readonly name: string; readonly make: () => string }> = [
  ...AUDIT_ROWS.map(({ name, make }) => ({ name: `${name}, 10 MiB`, make: () => make(10 * MiB) })),
  { name: 'a real review: findings, headings, code, 10 MiB', make: () => typicalReview(10 * MiB) },
  { name: 'a real review: 70,000 references', make: () => denseReview(70_000) },
  {
    name: "at the budget's edge: 94,000 list items of marks and a reference (1.79 million tokens)",
    make: () => edgeReview(94_000),
  },
];

/** List items dense with inline elements, each with a reference: as many tokens and elements as the budget allows. */
function edgeReview(items: number): string {
  return (
    Array.from({ length: items }, (_, i) => `- *a* **b** \`c\` [d](src/mod${i % 20}/index.ts:${(i % 400) + 1}) e`).join(
      '\n',
    ) + '\n'
  );
}

async function main(): Promise<void> {
  const [rowArg, engineArg, workerScript] = process.argv.slice(2);
  const row = BENCH_ROWS[Number(rowArg)];
  const engine = engineArg as BudgetWorkerRequest['engine'];
  const markdown = row.make();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-budget-bench-'));
  writeFixtureFiles(root);
  const preParseStarted = performance.now();
  const preParse = budgetRefusal(markdown);
  const preParseMs = performance.now() - preParseStarted;
  const baseRss = process.memoryUsage.rss();
  let peakRss = baseRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 10);
  const worker = new Worker(workerScript, {
    resourceLimits: { maxOldGenerationSizeMb: engine === 'redline' ? RENDER_WORKER_HEAP_MB : FLOOR_HEAP_MB },
  });
  const reply = await new Promise<BudgetWorkerReply>((resolve) => {
    const started = performance.now();
    worker.once('message', resolve);
    worker.once('error', (error: Error & { code?: string }) =>
      resolve({
        ms: performance.now() - started,
        shown: false,
        detail: `the worker died: ${error.code ?? error.message}`,
        heapTotalMiB: NaN,
      }),
    );
    worker.postMessage({ markdown, roots: [root], engine } satisfies BudgetWorkerRequest);
  });
  clearInterval(sampler);
  await worker.terminate();
  fs.rmSync(root, { recursive: true, force: true });
  process.stdout.write(
    JSON.stringify({
      ...reply,
      bytes: markdown.length,
      peakRssMiB: peakRss / MiB,
      baseRssMiB: baseRss / MiB,
      preParseMs,
      preParse: preParse ?? 'accepted',
    }) + '\n',
  );
}

if (require.main === module) void main();
