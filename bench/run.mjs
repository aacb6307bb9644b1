// `npm run bench`: measures Redline and prints a table. Figures are medians over repeated runs
// on a shared machine, so compare the ratios measured side by side in one run.

import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testVsCodePaths } from '../test/e2e/harness/install.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(1)} ms`;

function bundleBench(name) {
  mkdirSync(join(root, 'out'), { recursive: true });
  const outfile = join(root, 'out', `${name}.cjs`);
  esbuild.buildSync({
    entryPoints: [join(root, 'bench', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return outfile;
}

function runBridgeBench(script) {
  const reports = [];
  for (let i = 0; i < runs; i++) {
    process.stderr.write(`bridge run ${i + 1}/${runs}…\n`);
    const env = { ...process.env, REDLINE_MCP_SERVER: join(root, 'dist', 'mcp-server.js'), REDLINE_RENDER_WORKER: join(root, 'dist', 'renderWorker.js') };
    reports.push(JSON.parse(execFileSync(process.execPath, [script], { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 20 })));
  }
  return reports;
}

const rows = [];
const row = (area, measure, value, goal = '') => rows.push({ area, measure, value, goal });

/** bench/coldStart.mjs's medians on `node`, with Node's compile cache `warm` (filled by an earlier start) or `cold` (empty). */
const coldStart = (node, compileCache) =>
  JSON.parse(execFileSync(process.execPath, [join(root, 'bench', 'coldStart.mjs'), '--json', '--node', node, '--compile-cache', compileCache], { cwd: root, encoding: 'utf8' }));
const OPENINGS = ['discover', 'codex', 'gemini', 'inspector'];

// Node 20 has no compile cache; Node 24 (the test VS Code's own, as `npm test` installs it) has one.
const node24 = testVsCodePaths().nodePath;
const coldStarts = [
  ['Node 20', process.execPath, 'cold'],
  ...(existsSync(node24) ? [['Node 24, compile cache empty', node24, 'cold'], ['Node 24, compile cache warm', node24, 'warm']] : []),
];
for (const [label, node, compileCache] of coldStarts) {
  process.stderr.write(`cold start, ${label}…\n`);
  const result = coldStart(node, compileCache);
  const cells = OPENINGS.map((opening) => `${opening} ${(result.redline[opening] / result.bareMs).toFixed(2)}×`).join(', ');
  row('Cold start', `${label} (${result.node}): spawn → the opening's answer, ÷ bare \`node -e ''\` (${ms(result.bareMs)})`, cells, '≤ 2× each');
  row('Cold start', `${label}: spawn → the full server's first answer (a ping after the codex opening)`, ms(result.redline.fullServer));
}

const reports = runBridgeBench(bundleBench('bridgeBench'));
const pick = (get) => median(reports.map(get));
row('Round trip', '200 sequential 2 KB present-review, median', ms(pick((r) => r.roundTrip.medianMs)));
row('Round trip', '200 sequential 2 KB present-review, p99', ms(pick((r) => r.roundTrip.p99Ms)));
for (const [index, label] of [[0, 'one client'], [1, '4 clients']]) {
  const delivered = Math.min(...reports.map((r) => r.concurrency[index].sections));
  row('Concurrency', `1,000 appends, 64 in flight per client, ${label}`, `${ms(pick((r) => r.concurrency[index].wallMs))}, ${delivered}/1000 delivered`, '1000/1000, < 500 ms');
}
const findingsMiB = (reports[0].size[3].bytes / 1024 / 1024).toFixed(1);
for (const [index, label] of [[0, '100 KiB'], [1, '1 MiB'], [2, '10 MiB'], [3, `70,000 findings (${findingsMiB} MiB)`]]) {
  row('Size', `${label}: deliver (call → reply, includes render)`, ms(pick((r) => r.size[index].deliverMs)), index === 2 ? '< 2 s' : '');
  row('Size', `${label}: the host thread's longest stall during present-review`, ms(pick((r) => r.size[index].longestStallMs)), '≤ 50 ms');
  row('Size', `${label}: render on one thread (the worker's cost)`, ms(pick((r) => r.size[index].renderMs)), index === 1 ? '< 100 ms' : '');
  row('Size', `${label}: MCP server peak RSS`, `${pick((r) => r.size[index].peakRssMiB).toFixed(0)} MiB`);
}
row('Cancel', '5 MiB present-review cancelled during its render: cancel sent → the window settles the call (median of 5)', ms(pick((r) => r.cancelMs)), '≤ 50 ms');
process.stderr.write('stdin bench…\n');
const stdin = JSON.parse(execFileSync(process.execPath, [bundleBench('stdinBench')], { cwd: root, encoding: 'utf8' }));
for (const { mib, lineDecoderMs, sdkMs } of stdin) {
  row('Stdin', `one ${mib} MiB message in 64 KiB chunks: line decoder vs the SDK's read buffer`, `${ms(lineDecoderMs)} vs ${ms(sdkMs)} (${(sdkMs / lineDecoderMs).toFixed(0)}×)`);
}
row('Cold start', 'spawn → first present-review answered (discover, tools/list, present-review; window answering)', ms(pick((r) => r.firstPresentMs)));
row('Footprint', 'MCP server idle RSS', `${pick((r) => r.idleRssMiB).toFixed(0)} MiB`);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
try {
  row('Footprint', 'vsix size', `${(statSync(join(root, `redline-${version}.vsix`)).size / 1024).toFixed(0)} KiB`);
} catch {
  row('Footprint', 'vsix size', 'not built (run npm run package)');
}

const width = (key) => Math.max(key.length, ...rows.map((r) => r[key].length));
const line = (r) => `| ${r.area.padEnd(width('area'))} | ${r.measure.padEnd(width('measure'))} | ${r.value.padEnd(width('value'))} | ${r.goal.padEnd(width('goal'))} |`;
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; medians of ${runs} runs\n`);
console.log(line({ area: 'area', measure: 'measure', value: 'value', goal: 'goal' }));
console.log(line({ area: '-'.repeat(width('area')), measure: '-'.repeat(width('measure')), value: '-'.repeat(width('value')), goal: '-'.repeat(width('goal')) }));
for (const r of rows) console.log(line(r));
