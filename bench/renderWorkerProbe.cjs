// Stands in for dist/renderWorker.js in the bridge bench (REDLINE_RENDER_WORKER), and runs the
// build's own worker (REDLINE_BENCH_RENDER_WORKER) unchanged. It samples the worker's own heap
// whenever the worker posts (a progress step, a part, the answer) and tells the bench, on a
// broadcast channel, the peak since the job came in: a worker thread has no RSS of its own.

const { BroadcastChannel, parentPort } = require('worker_threads');
const { getHeapStatistics } = require('v8');

const script = process.env.REDLINE_BENCH_RENDER_WORKER;
if (!parentPort || !script)
  throw new Error(
    "renderWorkerProbe.cjs runs as the bridge bench's render worker, with REDLINE_BENCH_RENDER_WORKER set",
  );

const channel = new BroadcastChannel('redline-bench-render-worker');
channel.unref();
const MiB = 1024 * 1024;
let peak = { usedMiB: 0, committedMiB: 0 };
const sample = () => {
  const { used_heap_size, total_heap_size } = getHeapStatistics();
  peak = {
    usedMiB: Math.max(peak.usedMiB, used_heap_size / MiB),
    committedMiB: Math.max(peak.committedMiB, total_heap_size / MiB),
  };
};

// Registered before the worker's own listener, so it runs first for each job.
parentPort.on('message', () => {
  peak = { usedMiB: 0, committedMiB: 0 };
  sample();
});
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (message, transfer) => {
  sample();
  channel.postMessage(peak);
  return post(message, transfer);
};
require(script);
