// `npm run bench`: measures Redline and prints its tables (issue 33's figures first). Figures are
// medians over repeated runs on a shared machine: compare the ratios measured side by side in one run.
//
//   npm run bench                          this checkout (npm run bench packages it first)
//   node bench/run.mjs --before <dir>      <dir> ("before") against this checkout ("after"),
//                                          alternated in one run; <dir> is a checkout with its dist/ built:
//       git worktree add /tmp/before <rev> && ln -s "$PWD/node_modules" /tmp/before/node_modules
//       (cd /tmp/before && node scripts/build.mjs --production)
//   --only render|delivered|cold-start|stdin   one part (repeatable); BENCH_RUNS=n (default 3) runs each
//
// A delivered run takes minutes per build (most of it the 10 MiB reviews): BENCH_RUNS=1 for a
// quick look.
//
// Render: markdown-it alone, with highlight.js, and each build's renderer, in one process on one
// thread (bench/renderBench.ts). Delivered: call → reply through the built MCP server and the
// integration kit's host with a durable store, one process per build and run (bench/bridgeBench.ts).
// The bench's own files come from this checkout; bench/builds.mjs explains how a build is bundled.
// Everything measured is also written to test-artifacts/bench.json.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { testVsCodePaths } from '../test/e2e/harness/install.mjs';
import { buildsOf, bundleFor, describeBuild, harnessEnv, root } from './builds.mjs';
import { median, mib, ms, plusMs, printTable, ratio } from './tables.mjs';

const USAGE =
  'usage: node bench/run.mjs [--before <checkout with dist/ built>] [--only render|delivered|cold-start|stdin ...]';
const PARTS = ['render', 'delivered', 'cold-start', 'stdin'];
const { values: options } = parseArgs({
  options: { before: { type: 'string' }, only: { type: 'string', multiple: true } },
});
const parts = options.only ?? PARTS;
if (parts.some((part) => !PARTS.includes(part))) throw new Error(USAGE);
const builds = buildsOf(options.before, USAGE);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const labels = builds.map((build) => build.label);
const report = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  runs,
  builds: builds.map(describeBuild),
};

console.log(`Machine: ${report.machine}; medians of ${runs} runs (more for small reviews)`);
for (const line of report.builds) console.log(`  ${line}`);
console.log('');

if (parts.includes('render')) {
  // One process holds every build's renderer, so that the same moments of a busy machine fall on all.
  const renderers = await Promise.all(
    builds.map(async (build) => ({ label: `Redline ${build.label}`, bundle: await bundleFor(build, 'renderSubject') })),
  );
  const bench = await bundleFor(builds[builds.length - 1], 'renderBench');
  const render = JSON.parse(
    execFileSync(process.execPath, [bench], {
      cwd: root,
      env: { ...process.env, BENCH_RUNS: String(runs), REDLINE_BENCH_RENDERERS: JSON.stringify(renderers) },
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  report.render = render;
  console.log("Render on one thread (the review's whole render; medians):\n");
  const redline = renderers.map(({ label }) => label);
  const header = [
    'review',
    'markdown-it alone',
    'markdown-it + highlight.js',
    ...redline,
    ...redline.map((label) => `${label} ÷ markdown-it`),
  ];
  printTable(
    header.map((cell) => (builds.length === 1 ? cell.replace('Redline now', "Redline's renderer") : cell)),
    render.results.map(({ name, samples }) => {
      const floor = median(samples['markdown-it']);
      return [
        name,
        ms(floor),
        ms(median(samples['markdown-it + highlight.js'])),
        ...redline.map((label) => ms(median(samples[label]))),
        ...redline.map((label) => ratio(median(samples[label]), floor)),
      ];
    }),
  );
}

if (parts.includes('delivered')) {
  const bundles = await Promise.all(
    builds.map(async (build) => ({ build, script: await bundleFor(build, 'bridgeBench') })),
  );
  const reports = Object.fromEntries(labels.map((label) => [label, []]));
  for (let i = 0; i < runs; i++) {
    // Each run starts with the other build than the last, so that neither always goes first.
    for (const { build, script } of i % 2 ? [...bundles].reverse() : bundles) {
      process.stderr.write(`bridge, ${build.label}, run ${i + 1}/${runs}…\n`);
      reports[build.label].push(
        JSON.parse(
          execFileSync(process.execPath, ['--expose-gc', script], {
            cwd: root,
            env: harnessEnv(build),
            encoding: 'utf8',
            maxBuffer: 1 << 26,
            stdio: ['ignore', 'pipe', 'inherit'],
          }),
        ),
      );
    }
  }
  report.bridge = reports;
  printDelivered(reports);
}

/** The delivered table, the memory table and the second client's figure, from every run of every build. */
function printDelivered(reports) {
  const sizes = reports[labels[0]][0].delivered.map((size) => size.name);
  /** Every sample of `key` for size `index` of `label`, pooled over the runs. */
  const pooled = (label, index, key) => reports[label].flatMap((r) => r.delivered[index][key]);
  const floorOf = (index) => median(labels.flatMap((label) => pooled(label, index, 'markdownItMs')));
  const sizeName = (index) =>
    `${sizes[index]}${sizes[index].includes('findings') ? ` (${(reports[labels[0]][0].delivered[index].bytes / 2 ** 20).toFixed(1)} MiB)` : ''}`;
  console.log(
    'Delivered: present-review call → reply, through the built MCP server and the host with a durable store (medians; the floor is markdown-it alone on the same text, in the same process):\n',
  );
  printTable(
    [
      'review',
      'markdown-it alone',
      ...labels.map((label) => `delivered, ${label}`),
      ...labels.map((label) => `difference, ${label} (goal ≤ +30 ms)`),
      ...labels.map((label) => `host's longest stall, ${label}`),
    ],
    sizes.map((_, index) => [
      sizeName(index),
      ms(floorOf(index)),
      ...labels.map((label) => ms(median(pooled(label, index, 'deliverMs')))),
      ...labels.map((label) => plusMs(median(pooled(label, index, 'deliverMs')) - floorOf(index))),
      ...labels.map((label) => ms(median(pooled(label, index, 'longestStallMs')))),
    ]),
  );
  console.log(
    "Memory per review (medians; the heap's growth is over the same host holding a small review; the process's RSS holds the host, the render worker and the bench's MCP client):\n",
  );
  const both = (get) => labels.map(get).join(' → ');
  printTable(
    [
      'review',
      `host heap growth, peak / kept after GC (${labels.join(' → ')})`,
      `render worker heap, peak used / committed`,
      `process peak RSS during the call`,
      `MCP server peak RSS`,
    ],
    sizes.map((_, index) => [
      sizeName(index),
      both(
        (label) =>
          `${mib(median(pooled(label, index, 'heapPeakMiB')))} / ${mib(median(pooled(label, index, 'heapKeptMiB')))}`,
      ),
      both(
        (label) =>
          `${mib(median(pooled(label, index, 'workerUsedMiB')))} / ${mib(median(pooled(label, index, 'workerCommittedMiB')))}`,
      ),
      both((label) => mib(median(pooled(label, index, 'rssPeakMiB')))),
      both((label) => mib(median(reports[label].map((r) => r.delivered[index].mcpPeakRssMiB)))),
    ]),
  );
  const pick = (label, get) => median(reports[label].map(get));
  const rows = [
    [
      "A second client's get-selection every 10 ms during a 10 MiB present: slowest (goal ≤ 50 ms)",
      (label) => ms(pick(label, (r) => r.secondClient.slowestMs)),
    ],
    [
      '… the same: median, and calls made',
      (label) =>
        `${ms(pick(label, (r) => r.secondClient.medianMs))}, ${pick(label, (r) => r.secondClient.calls)} calls`,
    ],
    [
      '200 sequential 2 KiB present-review: median / p99',
      (label) => `${ms(pick(label, (r) => r.roundTrip.medianMs))} / ${ms(pick(label, (r) => r.roundTrip.p99Ms))}`,
    ],
    [
      '1,000 appends, 64 in flight per client: one client / 4 clients (goal < 500 ms, all delivered)',
      (label) =>
        reports[label][0].concurrency
          .map(
            (_, c) =>
              `${ms(pick(label, (r) => r.concurrency[c].wallMs))}, ${Math.min(...reports[label].map((r) => r.concurrency[c].sections))}/1000`,
          )
          .join(' / '),
    ],
    [
      '5 MiB present cancelled during its render: cancel → settled (goal ≤ 50 ms)',
      (label) => ms(pick(label, (r) => r.cancelMs)),
    ],
    [
      'spawn → first present-review answered (discover, tools/list, present-review)',
      (label) => ms(pick(label, (r) => r.firstPresentMs)),
    ],
    ['MCP server idle RSS', (label) => mib(pick(label, (r) => r.idleRssMiB))],
  ];
  console.log('Around a present (medians of the runs):\n');
  printTable(
    ['measure', ...labels],
    rows.map(([measure, cell]) => [measure, ...labels.map(cell)]),
  );
}

if (parts.includes('cold-start')) {
  const OPENINGS = ['discover', 'codex', 'gemini', 'inspector'];
  const also = options.before ? ['--also', `before=${join(builds[0].tree, 'dist', 'mcp-server.js')}`] : [];
  // Node 20 has no compile cache; Node 24 (the test VS Code's own, as `npm test` installs it) has one.
  const node24 = testVsCodePaths().nodePath;
  const starts = [
    ['Node 20', process.execPath, 'cold'],
    ...(existsSync(node24)
      ? [
          ['Node 24, compile cache empty', node24, 'cold'],
          ['Node 24, compile cache warm', node24, 'warm'],
        ]
      : []),
  ];
  const rows = [];
  report.coldStart = {};
  for (const [label, node, compileCache] of starts) {
    process.stderr.write(`cold start, ${label}…\n`);
    const result = JSON.parse(
      execFileSync(
        process.execPath,
        [join(root, 'bench', 'coldStart.mjs'), '--json', '--node', node, '--compile-cache', compileCache, ...also],
        { cwd: root, encoding: 'utf8' },
      ),
    );
    report.coldStart[label] = result;
    const keys = options.before
      ? [
          ['before', 'before'],
          ['after', 'redline'],
        ]
      : [['now', 'redline']];
    for (const [build, key] of keys) {
      rows.push([
        `${label} (${result.node}), ${build}`,
        OPENINGS.map((opening) => `${opening} ${ratio(result[key][opening], result.bareMs)}`).join(', '),
        ms(result[key].fullServer),
      ]);
    }
  }
  console.log(
    "Cold start: spawn → the opening's answer ÷ a bare `node -e ''` (goal ≤ 2× each), and the full server's first answer:\n",
  );
  printTable(['node, build', 'openings', 'full server'], rows);
}

if (parts.includes('stdin')) {
  process.stderr.write('stdin bench…\n');
  const stdin = JSON.parse(
    execFileSync(process.execPath, [await bundleFor(builds[builds.length - 1], 'stdinBench')], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  report.stdin = stdin;
  console.log("Stdin (this checkout): one message in 64 KiB chunks, line decoder vs the SDK's read buffer:\n");
  printTable(
    ['message', 'line decoder', "SDK's read buffer"],
    stdin.map(({ mib: size, lineDecoderMs, sdkMs }) => [
      `${size} MiB`,
      ms(lineDecoderMs),
      `${ms(sdkMs)} (${ratio(sdkMs, lineDecoderMs)})`,
    ]),
  );
}

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsixSize = (build) => {
  try {
    return `${(statSync(join(build.tree, `redline-${version}.vsix`)).size / 1024).toFixed(0)} KiB`;
  } catch {
    return 'not built (npm run package)';
  }
};
console.log(`vsix size: ${builds.map((build) => `${build.label} ${vsixSize(build)}`).join(', ')}`);

mkdirSync(join(root, 'test-artifacts'), { recursive: true });
writeFileSync(join(root, 'test-artifacts', 'bench.json'), JSON.stringify(report, null, 1) + '\n');
console.log('All samples: test-artifacts/bench.json');
