// Round trip, concurrency and size figures for `npm run bench`: the real built MCP server over
// stdio, the extension's real IpcServer on a real socket and its file-backed review store (the
// integration tests' harness).
// Bundled by bench/run.mjs; prints one JSON object on stdout.

import { readFileSync } from 'fs';
import { monitorEventLoopDelay } from 'perf_hooks';
import { ReviewRenderer } from '../extension/src/render/reviewRenderer';
import type { RequestObserver } from '../extension/src/ipc/ipcConnection';
import { MAX_CALLS_IN_FLIGHT } from '../mcp-server/src/callLimit';
import { connectMcp, hostEnv, inFlightAtMost, startHost, type Host } from '../test/integration/harness';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const now = () => performance.now();

/** A review of about `bytes`, with headings, prose references, inline-code references and code blocks. */
export function sampleReview(bytes: number): string {
  const block = [
    '## Finding',
    '',
    'The retry loop at src/example.ts:42 never backs off; compare `src/example.ts:10-12` and [the helper](src/example.ts#L20).',
    'A reference to src/missing.ts:3 is broken on purpose.',
    '',
    '```ts',
    'for (;;) { await fetch(url); }',
    '```',
    '',
  ].join('\n');
  return `# Review\n\n${block.repeat(Math.ceil(bytes / block.length))}`.slice(0, bytes);
}

async function roundTrip(host: Host, calls: number) {
  const mcp = await connectMcp(hostEnv(host), host.workspace);
  const content = sampleReview(2 * 1024);
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
  const connections = await Promise.all(Array.from({ length: clients }, () => connectMcp(hostEnv(host), host.workspace)));
  await host.store.present({ content: '# Concurrency', mode: 'replace' });
  const started = now();
  const results = (
    await Promise.all(
      connections.map((mcp, c) =>
        inFlightAtMost(
          MAX_CALLS_IN_FLIGHT,
          Array.from({ length: total / clients }, (_, i) => () =>
            mcp.client.callTool({ name: 'present-review', arguments: { content: `## C${c}-${i}\n\nbody`, mode: 'append' } }),
          ),
        ),
      ),
    )
  ).flat();
  const wallMs = now() - started;
  await Promise.all(connections.map((mcp) => mcp.close()));
  return { clients, total, inFlightPerClient: MAX_CALLS_IN_FLIGHT, wallMs, ok: results.filter((r) => !r.isError).length, sections: host.store.current!.sections.length - 1 };
}

/** `count` findings, one list item each, every one at a line of src/example.ts (about 4.3 MiB for 70,000). */
function findingList(count: number): string {
  const lines = ['# Every call site', ''];
  for (let i = 0; i < count; i++) lines.push(`- src/example.ts:${(i % 60) + 1} calls \`retry()\` without a limit (site ${i})`);
  return lines.join('\n') + '\n';
}

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
    await mcp.client.callTool({ name: 'present-review', arguments: { content } }, { signal: controller.signal, timeout: 300_000, onprogress }).catch(() => undefined);
    const settledAt = await settled;
    if (cancelledAt === 0) throw new Error('the render sent no progress to cancel on');
    delays.push(settledAt - cancelledAt);
  }
  onPresentSettled = () => undefined;
  await mcp.close();
  return median(delays);
}

/** One large present-review: delivery (call → reply), the host's longest stall, and the render's own time on one thread. */
async function size(host: Host, content: string) {
  const mcp = await connectMcp(hostEnv(host), host.workspace);
  const pid = (mcp.client.transport as unknown as { pid: number | null }).pid;
  // The first call loads the full server (the handshake is answered without it); keep that out.
  await mcp.client.callTool({ name: 'get-review', arguments: {} });
  hostStalls.reset();
  sampleHostStalls = true;
  const started = now();
  const result = await mcp.client.callTool({ name: 'present-review', arguments: { content } }, { timeout: 300_000 });
  const deliverMs = now() - started;
  sampleHostStalls = false;
  const peakRssMiB = pid ? peakRss(pid) : undefined;
  await mcp.close();
  // The render's cost, on this thread: one renderer whose line counts live across renders (the
  // first of the five fills them), so the median is a re-render such as the panel's after the report's.
  const renderer = new ReviewRenderer(() => [host.workspace]);
  const renders: number[] = [];
  for (let i = 0; i < 5; i++) {
    const renderStarted = now();
    await renderer.renderFragment(content, host.workspace);
    renders.push(now() - renderStarted);
  }
  return { bytes: Buffer.byteLength(content), ok: !result.isError, deliverMs, longestStallMs: hostStalls.max / 1e6, renderMs: median(renders), peakRssMiB };
}

/** VmHWM: the MCP server's peak resident memory so far, from /proc. */
function peakRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kib) ? kib / 1024 : undefined;
  } catch {
    return undefined;
  }
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
    const result = await mcp.client.callTool({ name: 'present-review', arguments: { content: sampleReview(2 * 1024) } });
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
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  await mcp.close();
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

async function main() {
  const host = await startHost({ durable: true, observer: stallObserver });
  try {
    const report = {
      roundTrip: await roundTrip(host, 200),
      concurrency: [await concurrency(host, 1, 1000), await concurrency(host, 4, 1000)],
      size: [
        await size(host, sampleReview(100 * 1024)),
        await size(host, sampleReview(1024 * 1024)),
        await size(host, sampleReview(10 * 1024 * 1024 - 1024)),
        await size(host, findingList(70_000)),
      ],
      cancelMs: await cancelDuringRender(host, sampleReview(5 * 1024 * 1024), 5),
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
