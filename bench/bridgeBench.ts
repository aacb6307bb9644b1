// Delivery, round trip, concurrency and memory figures for `npm run bench`: the real built MCP
// server over stdio, the extension's real IpcServer on a real socket and its file-backed review
// store (the integration tests' harness, with its render worker pool). bench/run.mjs bundles this
// file once per build it measures, against that build's harness, and runs it with --expose-gc and
// bench/renderWorkerProbe.cjs as the render worker. Prints one JSON object on stdout.

import { readFileSync, writeFileSync } from 'fs';
import MarkdownIt from 'markdown-it';
import { monitorEventLoopDelay } from 'perf_hooks';
import { BroadcastChannel } from 'worker_threads';
import type { RequestObserver } from '../extension/src/ipc/requestContract';
import { MAX_CALLS_IN_FLIGHT } from '../mcp-server/src/callLimit';
import { connectMcp, hostEnv, inFlightAtMost, startHost, type Host } from '../test/integration/harness';
import { findingsReview, type FindingPlace } from './reviewFixtures';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const now = () => performance.now();
const MiB = 1024 * 1024;
const KiB = 1024;
const gc =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    throw new Error('run the bridge bench with --expose-gc');
  });

/** Every generated finding points into the harness workspace's src/example.ts (60 lines). */
const example: FindingPlace = () => ({ file: 'src/example.ts', lines: 60 });
/** A review of findings of `bytes`; `n` makes each one differ, so that no render is served from a cache. */
const review = (bytes: number, n: number) => findingsReview(bytes, example, `Review ${n}`);

/** `count` findings, one list item each, every one at a line of src/example.ts (about 4.3 MiB for 70,000). */
function findingList(count: number, n: number): string {
  const lines = [`# Every call site (${n})`, ''];
  for (let i = 0; i < count; i++)
    lines.push(`- src/example.ts:${(i % 60) + 1} calls \`retry()\` without a limit (site ${i})`);
  return lines.join('\n') + '\n';
}

/** The sizes delivered; small ones vary most from call to call and get more calls, which cost little. */
const SIZES: ReadonlyArray<{ name: string; make: (n: number) => string; calls: number }> = [
  { name: '20 KiB', make: (n) => review(20 * KiB, n), calls: 9 },
  { name: '50 KiB', make: (n) => review(50 * KiB, n), calls: 7 },
  { name: '100 KiB', make: (n) => review(100 * KiB, n), calls: 7 },
  { name: '1 MiB', make: (n) => review(MiB, n), calls: 3 },
  // The protocol's limit is 10 MiB of UTF-8.
  { name: '10 MiB', make: (n) => review(10 * MiB - KiB, n), calls: 1 },
  { name: '70,000 findings', make: (n) => findingList(70_000, n), calls: 1 },
];

/** The floor: markdown-it alone, with Redline's options, on the same text. */
const markdownIt = new MarkdownIt({ html: false, linkify: true });

/**
 * The host thread's delays while it holds a present-review (from the request's arrival to its
 * reply). The bench's MCP client shares the thread, and its sending and reading are not the host's.
 */
const hostStalls = monitorEventLoopDelay({ resolution: 5 });
let sampleHostStalls = false;
/** Told when the window settles a present-review (answered, failed or cancelled). */
let onPresentSettled: () => void = () => undefined;
const stallObserver: RequestObserver = {
  onRequestStarted: (request) => sampleHostStalls && request.method === 'present-review' && hostStalls.enable(),
  onRequestSettled: (request) => {
    if (request.method !== 'present-review') return;
    hostStalls.disable();
    onPresentSettled();
  },
};

/** The render worker's heap peak during its last job, as bench/renderWorkerProbe.cjs reports it. */
let workerPeak: { usedMiB: number; committedMiB: number } | undefined;
const workerChannel = new BroadcastChannel('redline-bench-render-worker');
workerChannel.unref();
/** Read through a function: the channel sets it between the awaits. */
const lastWorkerPeak = () => workerPeak;
workerChannel.onmessage = (event) => {
  const { usedMiB, committedMiB } = (event as unknown as { data: { usedMiB: number; committedMiB: number } }).data;
  workerPeak = {
    usedMiB: Math.max(usedMiB, workerPeak?.usedMiB ?? 0),
    committedMiB: Math.max(committedMiB, workerPeak?.committedMiB ?? 0),
  };
};

/** This process's status line `field` (VmRSS, VmHWM) in MiB. */
function status(field: string, pid: number | 'self' = 'self'): number | undefined {
  try {
    const kib = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kib) ? kib / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Lets the host finish what a reply leaves behind (the findings' anchoring, the worker's last posts). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** Brings the host back to a small review, so that each size's memory is measured from the same floor. */
async function baseline(mcp: Awaited<ReturnType<typeof connectMcp>>, n: number) {
  // The renderer keeps the last three renders: three small ones push a large one out.
  for (let i = 0; i < 3; i++)
    await mcp.client.callTool({
      name: 'present-review',
      arguments: { content: `# Small ${n}.${i}\n\nsrc/example.ts:${i + 1} is fine.\n` },
    });
  await settle();
  gc();
  return process.memoryUsage().heapUsed / MiB;
}

/**
 * One size: each call's delivery (call → reply), the host thread's longest stall, the host's heap
 * growth (peak, sampled every 5 ms when the thread is free, and kept after a collection), the
 * process's peak RSS during the call (host, render worker and client; it never shrinks much, so
 * it is the peak, not a growth), the render worker's heap, the MCP server's peak RSS, and
 * markdown-it alone on the same texts.
 */
async function deliver(host: Host, { name, make, calls }: (typeof SIZES)[number], first: number) {
  const mcp = await connectMcp(hostEnv(host), host.workspace);
  const pid = (mcp.client.transport as unknown as { pid: number | null }).pid;
  // The first call loads the full server (the handshake is answered without it); keep that out.
  await mcp.client.callTool({ name: 'get-review', arguments: {} });
  const samples = {
    deliverMs: [] as number[],
    markdownItMs: [] as number[],
    longestStallMs: [] as number[],
    heapPeakMiB: [] as number[],
    heapKeptMiB: [] as number[],
    rssPeakMiB: [] as number[],
    workerUsedMiB: [] as number[],
    workerCommittedMiB: [] as number[],
  };
  let bytes = 0;
  for (let call = 0; call < calls; call++) {
    const content = make(first + call);
    bytes = Buffer.byteLength(content);
    const heapBefore = await baseline(mcp, first + call);
    let heapPeak = heapBefore;
    const heapSampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed / MiB)), 5);
    writeFileSync('/proc/self/clear_refs', '5'); // VmHWM starts again from VmRSS
    workerPeak = undefined;
    hostStalls.reset();
    sampleHostStalls = true;
    const started = now();
    const result = await mcp.client.callTool({ name: 'present-review', arguments: { content } }, { timeout: 300_000 });
    samples.deliverMs.push(now() - started);
    sampleHostStalls = false;
    clearInterval(heapSampler);
    if (result.isError)
      throw new Error(`present-review of ${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
    samples.rssPeakMiB.push(status('VmHWM') ?? 0);
    samples.longestStallMs.push(hostStalls.max / 1e6);
    samples.heapPeakMiB.push(heapPeak - heapBefore);
    await settle();
    gc();
    samples.heapKeptMiB.push(process.memoryUsage().heapUsed / MiB - heapBefore);
    const worker = lastWorkerPeak();
    if (worker) {
      samples.workerUsedMiB.push(worker.usedMiB);
      samples.workerCommittedMiB.push(worker.committedMiB);
    }
    gc();
    const floorStarted = now();
    markdownIt.render(content);
    samples.markdownItMs.push(now() - floorStarted);
  }
  const mcpPeakRssMiB = pid ? status('VmHWM', pid) : undefined;
  await mcp.close();
  return { name, bytes, ...samples, mcpPeakRssMiB };
}

/**
 * A second assistant's cheap call (get-selection, one every 10 ms) while the first presents a
 * 10 MiB review: the slowest and the median. Here its client shares the host's thread, which in a
 * window it does not: the UI suite measures the same in a real VS Code.
 */
async function secondClientDuringLargePresent(host: Host) {
  const [first, second] = await Promise.all([
    connectMcp(hostEnv(host), host.workspace),
    connectMcp(hostEnv(host), host.workspace),
  ]);
  await Promise.all([first, second].map((mcp) => mcp.client.callTool({ name: 'get-review', arguments: {} })));
  const answers: number[] = [];
  let presenting = true;
  const present = first.client
    .callTool({ name: 'present-review', arguments: { content: review(10 * MiB - KiB, -1) } }, { timeout: 300_000 })
    .finally(() => (presenting = false));
  while (presenting) {
    const asked = now();
    const result = await second.client.callTool({ name: 'get-selection', arguments: {} });
    if (result.isError) throw new Error(`get-selection failed: ${JSON.stringify(result.content)}`);
    answers.push(now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if ((await present).isError) throw new Error('the 10 MiB present-review failed');
  await Promise.all([first.close(), second.close()]);
  return { calls: answers.length, slowestMs: Math.max(...answers), medianMs: median(answers) };
}

async function roundTrip(host: Host, calls: number) {
  const mcp = await connectMcp(hostEnv(host), host.workspace);
  const content = review(2 * KiB, 0);
  await mcp.client.callTool({ name: 'present-review', arguments: { content } });
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = now();
    await mcp.client.callTool({ name: 'present-review', arguments: { content } });
    times.push(now() - started);
  }
  await mcp.close();
  return { calls, medianMs: median(times), p99Ms: percentile(times, 99) };
}

/** Each client keeps as many calls in flight as the MCP server allows one session (callLimit.ts). */
async function concurrency(host: Host, clients: number, total: number) {
  const connections = await Promise.all(
    Array.from({ length: clients }, () => connectMcp(hostEnv(host), host.workspace)),
  );
  await host.store.present({ content: '# Concurrency', mode: 'replace' });
  const started = now();
  const results = (
    await Promise.all(
      connections.map((mcp, c) =>
        inFlightAtMost(
          MAX_CALLS_IN_FLIGHT,
          Array.from(
            { length: total / clients },
            (_, i) => () =>
              mcp.client.callTool({
                name: 'present-review',
                arguments: { content: `## C${c}-${i}\n\nbody`, mode: 'append' },
              }),
          ),
        ),
      ),
    )
  ).flat();
  const wallMs = now() - started;
  await Promise.all(connections.map((mcp) => mcp.close()));
  return {
    clients,
    total,
    wallMs,
    ok: results.filter((r) => !r.isError).length,
    sections: host.store.current!.sections.length - 1,
  };
}

/**
 * A cancel while the render runs: from the client's cancel (sent on the window's first
 * "Rendering" progress) to the window settling the call, as the median of `times`.
 */
async function cancelDuringRender(host: Host, content: string, times: number) {
  const delays: number[] = [];
  const mcp = await connectMcp(hostEnv(host), host.workspace);
  await mcp.client.callTool({ name: 'get-review', arguments: {} });
  for (let i = 0; i < times; i++) {
    const controller = new AbortController();
    let cancelledAt = 0;
    const settled = new Promise<number>((resolve) => (onPresentSettled = () => resolve(now())));
    const onprogress = ({ message }: { message?: string }) => {
      if (cancelledAt === 0 && message?.startsWith('VS Code: Rendering')) {
        cancelledAt = now();
        controller.abort();
      }
    };
    await mcp.client
      .callTool(
        { name: 'present-review', arguments: { content } },
        { signal: controller.signal, timeout: 300_000, onprogress },
      )
      .catch(() => undefined);
    const settledAt = await settled;
    // A build that sends no "Rendering" step has nothing to cancel during: no figure, rather than a wrong one.
    if (cancelledAt === 0) break;
    delays.push(settledAt - cancelledAt);
  }
  onPresentSettled = () => undefined;
  await mcp.close();
  return delays.length ? median(delays) : undefined;
}

/**
 * Spawn → the first present-review answered, as an assistant meets it: the SDK's client probing
 * server/discover, listing the tools, then presenting; the window answers. The median of `starts`.
 */
async function firstPresent(host: Host, starts: number) {
  const times: number[] = [];
  for (let i = 0; i < starts; i++) {
    const started = now();
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    await mcp.client.listTools();
    const result = await mcp.client.callTool({ name: 'present-review', arguments: { content: review(2 * KiB, i) } });
    times.push(now() - started);
    await mcp.close();
    if (result.isError) throw new Error('the first present-review failed');
  }
  return median(times);
}

async function idleRss(host: Host) {
  const mcp = await connectMcp(hostEnv(host), host.workspace);
  await mcp.client.listTools();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const pid = (mcp.client.transport as unknown as { pid: number | null }).pid;
  const rss = pid ? status('VmRSS', pid) : undefined;
  await mcp.close();
  return rss;
}

async function main() {
  const host = await startHost({ durable: true, observer: stallObserver });
  try {
    // The window starts a render worker when an assistant connects: one 100 KiB review first, uncounted, starts it here.
    const warm = await connectMcp(hostEnv(host), host.workspace);
    await warm.client.callTool(
      { name: 'present-review', arguments: { content: review(100 * KiB, 0) } },
      { timeout: 300_000 },
    );
    await warm.close();
    // markdown-it's code compiled before it is timed, as Redline's is by the warm-up and the calls before.
    for (let i = 0; i < 5; i++) markdownIt.render(review(100 * KiB, i));
    const delivered = [];
    for (const [index, size] of SIZES.entries()) {
      process.stderr.write(`  delivered, ${size.name}…\n`);
      delivered.push(await deliver(host, size, (index + 1) * 100));
    }
    process.stderr.write('  a second client during a 10 MiB present…\n');
    const secondClient = await secondClientDuringLargePresent(host);
    process.stderr.write('  round trip, concurrency, cancel, first present…\n');
    const report = {
      delivered,
      secondClient,
      roundTrip: await roundTrip(host, 200),
      concurrency: [await concurrency(host, 1, 1000), await concurrency(host, 4, 1000)],
      cancelMs: await cancelDuringRender(host, review(5 * MiB, -2), 5),
      idleRssMiB: await idleRss(host),
      firstPresentMs: await firstPresent(host, 9),
    };
    process.stdout.write(JSON.stringify(report) + '\n');
  } finally {
    await host.stop();
  }
}

void main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
