// `node bench/windowProfile.mjs`: where a large review's time goes in the window users run. In
// code-server (the real VS Code the e2e suites drive), for each size it presents a review of
// findings and records, from the call to the last heading on screen:
//   - the extension host's CPU profile (its inspector, opened by the workbench's
//     `inspect-extensions` payload);
//   - Chromium's trace of the renderer that runs the workbench and, in code-server, its webviews;
//   - a timeline: the call, each part of the page arriving in the panel, the first heading on
//     screen, the answer, the last heading on screen (the probe jumps to the end each frame), a
//     second assistant's calls meanwhile, and the CPU of the panel's renderer and of the host after.
// It prints the timeline and the breakdowns, and writes the profiles beside a JSON of the figures
// (load them in Chrome's DevTools, Performance panel), to test-artifacts/window-profile/<label>/.
//
//   npm run package && node bench/windowProfile.mjs [--vsix <path>] [--label after] [--sizes 1024,10240]
//                                                   [--timeout 180] [--trace-seconds 60] [--no-trace]
// --sizes are KiB; --timeout the seconds to wait for a review's last heading; the renderer's trace
// covers at most --trace-seconds from the call.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { installVsix } from '../test/e2e/harness/codeServer.mjs';
import { REPO_ROOT } from '../test/e2e/harness/install.mjs';
import { makeTempDir, removeTempDir } from '../test/e2e/harness/processes.mjs';
import { ARTIFACTS_DIR } from '../test/e2e/harness/workbench.mjs';
import { EXTENSION_ID, FIXTURE_WORKSPACE, findVsix } from '../test/e2e/packaged.mjs';
import { headingOnScreen, rendererBusy } from '../test/e2e/ui/screenProbes.mjs';
import { RedlineSession } from '../test/e2e/ui/session.mjs';
import { sizedReview } from '../test/e2e/ui/sizedReviews.mjs';
import { InspectorClient } from './inspectorClient.mjs';
import { hostBreakdown, rendererBreakdown } from './profileAnalysis.mjs';
import { ms, printTable } from './tables.mjs';

// The inspector client needs a WebSocket: Node 20 has one behind a flag.
if (typeof WebSocket === 'undefined') {
  const run = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
];
/** How long the panel's renderer and the host are watched once the review is on screen. */
const AFTER_SHOWN_MS = 3000;
const CPU_SAMPLE_MS = 100;

const { values: options } = parseArgs({
  options: {
    vsix: { type: 'string' },
    label: { type: 'string', default: 'current' },
    sizes: { type: 'string', default: '1024,10240' },
    timeout: { type: 'string', default: '180' },
    'no-trace': { type: 'boolean', default: false },
    'trace-seconds': { type: 'string', default: '60' },
  },
});
const traceSeconds = Number(options['trace-seconds']);
const sizes = options.sizes.split(',').map((kib) => Number(kib) * 1024);
const timeoutMs = Number(options.timeout) * 1000;
const outDir = join(ARTIFACTS_DIR, 'window-profile', options.label);
mkdirSync(outDir, { recursive: true });

// Its assistants wait for VS Code as long as the profile waits for the page.
process.env.REDLINE_TIMEOUT_MS ??= `present-review=${timeoutMs}`;

const now = () => performance.timeOrigin + performance.now();
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function main() {
  const vsix = findVsix(options.vsix);
  const work = makeTempDir('redline-window-profile-');
  const port = await freePort();
  /** @type {RedlineSession | undefined} */
  let s;
  try {
    const extensionsDir = join(work, 'extensions');
    await installVsix(vsix.path, extensionsDir);
    const installed = join(
      extensionsDir,
      readdirSync(extensionsDir).find((n) => n.startsWith(`${EXTENSION_ID}-`)) ?? '',
    );
    // The workbench reads a payload only with the smoke-test driver, which hides toasts: nothing measured here shows one.
    s = await RedlineSession.open({
      extensionsDir,
      serverPath: join(installed, 'dist', 'mcp-server.js'),
      workspaceTemplate: FIXTURE_WORKSPACE,
      payload: [['inspect-extensions', String(port)]],
      smokeTestDriver: true,
    });
    const host = await InspectorClient.connect(port);
    await host.send('Profiler.enable');
    await host.send('Profiler.setSamplingInterval', { interval: 500 });
    const second = await s.connectAssistant('redline-window-profile-second');
    // A small review first: the panel's page, the render worker and the highlighter are warm.
    await s.call('present-review', { content: '# Warm-up\n\nsrc/example.ts:1\n', title: 'Warm-up' });
    await s.waitForReviewText('Warm-up', { timeoutMs: 60_000 });
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
    console.log(
      `${vsix.path} (${gitCommit()}), ${machine}, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    const results = [];
    for (const bytes of sizes) {
      results.push(await profileOne({ s, host, second, bytes }));
    }
    writeFileSync(
      join(outDir, 'figures.json'),
      JSON.stringify({ at: new Date().toISOString(), vsix: vsix.path, commit: gitCommit(), machine, results }, null, 1),
    );
    console.log(`profiles and figures: ${outDir.slice(REPO_ROOT.length + 1)}/`);
    await second.close();
    host.close();
  } finally {
    await s?.close();
    removeTempDir(work);
  }
}

/**
 * One review: presented, watched to its last heading, then idle; its profiles saved.
 * @param {{ s: RedlineSession, host: InspectorClient, second: any, bytes: number }} context
 */
async function profileOne({ s, host, second, bytes }) {
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(0)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
  const first = RedlineSession.marker('PROFILE-FIRST');
  const last = RedlineSession.marker('PROFILE-LAST');
  const content = sizedReview(bytes, { first, last });
  const frame = await s.reviewFrame({ timeoutMs: 60_000 });
  // A new review keeps the panel's offset: the user reads it from the top of the one before.
  await frame.evaluate(() => window.scrollTo(0, 0));
  const browser = s.page.context().browser();
  await frame.evaluate(recordArrivals);
  /** @type {Promise<Buffer> | undefined} */
  let tracing;
  let traceTimer;
  if (!options['no-trace']) {
    await browser.startTracing(s.page, { categories: TRACE_CATEGORIES });
    // Starting the sampler holds the renderer for a moment: let it pass before the call.
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // A trace of minutes would not fit in memory: it covers the first TRACE_SECONDS.
    traceTimer = setTimeout(() => (tracing ??= browser.stopTracing()), traceSeconds * 1000);
  }
  await host.send('Profiler.start');
  const loadAtStart = loadavg()[0];

  /** @type {Array<[number, string]>} */
  const timeline = [];
  const startedAt = now();
  const startedUs = monotonicUs();
  const since = () => now() - startedAt;
  const mark = (/** @type {string} */ what) => timeline.push([since(), what]);
  mark('present-review called');
  let presenting = true;
  const presented = s.mcp
    .callTool({ name: 'present-review', arguments: { content, title: `Profile ${size}` } }, { timeout: timeoutMs })
    .then((result) => {
      if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
      mark('the answer reached the assistant');
    })
    // A failed call is a line of the timeline, not the end of the run.
    .catch((error) => mark(`the call failed: ${String(error.message).slice(0, 160)}`))
    .finally(() => (presenting = false));
  /** @type {number[]} */
  const answers = [];
  const calls = (async () => {
    while (presenting) {
      const asked = now();
      await second.callTool({ name: 'get-selection', arguments: {} });
      answers.push(now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  let lastShown = false;
  try {
    await headingOnScreen(frame, first, { timeoutMs });
    mark('the first heading on screen');
    await headingOnScreen(frame, last, { jump: true, timeoutMs: Math.max(1, timeoutMs - since()) });
    mark('the last heading on screen (jumping to the end every frame)');
    lastShown = true;
  } catch (error) {
    mark(`gave up waiting: ${String(error).split('\n')[0].slice(0, 120)}`);
  }
  await presented;
  await calls;
  const endUs = monotonicUs();
  const after = lastShown ? await cpuAfterShown(s) : undefined;
  const profile = (await host.send('Profiler.stop')).profile;
  clearTimeout(traceTimer);
  if (!options['no-trace']) tracing ??= browser.stopTracing();
  const trace = tracing ? JSON.parse((await tracing).toString('utf8')) : undefined;
  for (const [at, what] of await frame.evaluate(collectArrivals).catch(() => [])) timeline.push([at - startedAt, what]);
  timeline.sort((a, b) => a[0] - b[0]);
  const jumpMs = lastShown ? await jumpToEnd(frame, last) : undefined;

  const stem = `${options.label}-${size.replace(' ', '')}`;
  writeFileSync(join(outDir, `${stem}.cpuprofile`), JSON.stringify(profile));
  if (trace) writeFileSync(join(outDir, `${stem}.trace.json`), JSON.stringify(trace));
  const window = { from: startedUs, to: endUs };
  const hostParts = hostBreakdown(profile, window);
  const renderer = trace ? rendererBreakdown(trace, window) : undefined;

  console.log(
    `## ${size} review (${(content.length / 1024 / 1024).toFixed(2)} MiB of markdown), load average ${loadAtStart.toFixed(1)}\n`,
  );
  printTable(
    ['ms after the call', 'what'],
    timeline.map(([at, what]) => [ms(at), what]),
  );
  const slowest = Math.max(0, ...answers);
  console.log(`a second assistant's get-selection every 25 ms meanwhile: slowest ${ms(slowest)} of ${answers.length}`);
  if (jumpMs !== undefined)
    console.log(`scrolled to the top, then a jump to the end: the last heading on screen in ${ms(jumpMs)}`);
  if (after)
    console.log(`once on screen: renderer main thread busy ${after.rendererBusy}; extension host CPU ${after.hostCpu}`);
  console.log('\nthe extension host, self time by origin (ms):');
  printTable(
    ['origin', 'ms'],
    hostParts.origins.map(([name, value]) => [name, value.toFixed(0)]),
  );
  printTable(
    ['heaviest functions on the host', 'ms'],
    hostParts.functions.map(([name, value]) => [name, value.toFixed(0)]),
  );
  printTable(
    ["the host's longest holds of its thread", 'ms after the call', 'ms', 'heaviest in it'],
    hostParts.holds.map((hold) => ['', ms(hold.atMs), ms(hold.ms), hold.top.join('; ')]),
  );
  if (renderer) {
    console.log(
      `the renderer's main thread (workbench and webviews): busy ${ms(renderer.busyMs)} of ${ms(renderer.windowMs)}, longest task ${ms(renderer.longestTaskMs)}`,
    );
    printTable(
      ['JavaScript (self time)', 'ms'],
      renderer.js.map(([name, value]) => [name, value.toFixed(0)]),
    );
    printTable(
      ['work (self time)', 'ms'],
      renderer.byName.map(([name, value]) => [name, value.toFixed(0)]),
    );
    printTable(
      ['frame', 'ms'],
      renderer.byFrame.map(([name, value]) => [name, value.toFixed(0)]),
    );
  }
  return {
    size,
    bytes: content.length,
    load: loadAtStart,
    timeline,
    slowestCallMs: slowest,
    calls: answers.length,
    jumpMs,
    after,
    host: hostParts,
    renderer,
  };
}

/**
 * The CPU of the renderer's main thread (workbench and webviews) and of the extension host, in
 * windows of CPU_SAMPLE_MS over AFTER_SHOWN_MS once the review is on screen.
 * @param {RedlineSession} s
 */
async function cpuAfterShown(s) {
  const hostPid = s.extensionHostPids()[0];
  const hostTicks = () => {
    const fields = readFileSync(`/proc/${hostPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const ticks = hostTicks();
  const started = performance.now();
  const renderer = await rendererBusy(s.page, { windowMs: CPU_SAMPLE_MS, forMs: AFTER_SHOWN_MS });
  // Clock ticks are 10 ms.
  const hostShare = ((hostTicks() - ticks) * 10) / (performance.now() - started);
  const percent = (/** @type {number[]} */ shares) => shares.map((share) => `${Math.round(share * 100)}`).join(' ');
  return {
    rendererBusy: `${percent(renderer.shares)} (% per ${CPU_SAMPLE_MS} ms; idle after ${renderer.idleAfterMs} ms)`,
    hostCpu: `${Math.round(hostShare * 100)}% over ${AFTER_SHOWN_MS} ms`,
    renderer: renderer.shares,
    rendererIdleAfterMs: renderer.idleAfterMs,
    host: hostShare,
  };
}

/** From the top of the page to its end: how long until the last heading is on screen. */
async function jumpToEnd(/** @type {import('playwright-core').Frame} */ frame, /** @type {string} */ last) {
  await frame.evaluate(() => window.scrollTo(0, 0));
  await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 500))));
  const started = now();
  await headingOnScreen(frame, last, { jump: true, timeoutMs });
  return now() - started;
}

/** In the panel: notes when each part of a page is added to #review (a MutationObserver), by wall clock. */
function recordArrivals() {
  const review = document.getElementById('review');
  const record = /** @type {any} */ (window).__redlineArrivals ?? { seen: [], observer: undefined };
  record.observer?.disconnect();
  record.seen = [];
  record.observer = new MutationObserver((mutations) => {
    const at = performance.timeOrigin + performance.now();
    let added = 0;
    // The page's own parts (a page, its slices or blocks), not what marks and highlighting add inside blocks.
    for (const mutation of mutations) {
      const depth = mutation.target === review ? 0 : mutation.target.parentNode === review ? 1 : 2;
      if (depth < 2 || mutation.target.parentNode?.parentNode === review) added += mutation.addedNodes.length;
    }
    if (added) record.seen.push([at, added]);
  });
  if (review) record.observer.observe(review, { childList: true, subtree: true });
  /** @type {any} */ (window).__redlineArrivals = record;
}

/** What recordArrivals saw, as timeline entries: the first and last additions, and their count. */
function collectArrivals() {
  const record = /** @type {any} */ (window).__redlineArrivals;
  record?.observer?.disconnect();
  const seen = /** @type {Array<[number, number]>} */ (record?.seen ?? []);
  if (seen.length === 0) return [];
  const nodes = seen.reduce((sum, [, added]) => sum + added, 0);
  const entries = [
    [seen[0][0], 'the panel added the first part of the page'],
    [seen[seen.length - 1][0], `the panel added the last part (${seen.length} additions, ${nodes} nodes)`],
  ];
  // Every tenth addition in between, to show the pace.
  const step = Math.max(1, Math.floor(seen.length / 10));
  for (let i = step; i < seen.length - 1; i += step) entries.push([seen[i][0], `the panel's addition ${i + 1}`]);
  return entries;
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function gitCommit() {
  const run = spawnSync('git', ['-C', REPO_ROOT, 'log', '-1', '--format=%h'], { encoding: 'utf8' });
  return run.stdout.trim() || 'unknown';
}

await main();
