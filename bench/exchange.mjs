// `node bench/exchange.mjs`: the exports (SARIF, rdjsonl, markdown) and the SARIF import on the
// largest inputs they take, each beside a floor measured in the same process (JSON.stringify of
// the review, JSON.parse of the log). Medians of BENCH_RUNS (default 5) runs, each in a fresh
// process, on a shared machine: compare within a row.

import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 5);
const out = join(root, 'out', 'exchange-bench');
mkdirSync(out, { recursive: true });
const bench = join(out, 'exchangeBench.cjs');
esbuild.buildSync({
  entryPoints: [join(root, 'bench', 'exchangeBench.ts')],
  outfile: bench,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
const { ROWS } = await import(bench);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const script = `const [bench, row] = process.argv.slice(1); process.stdout.write(JSON.stringify(require(bench).measure(row)));`;

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; medians of ${runs} runs\n`,
);
console.log('| what | time | floor (same process) | ratio | size |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of ROWS) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    results.push(
      JSON.parse(
        execFileSync(process.execPath, ['-e', script, bench, row], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 }),
      ),
    );
  }
  const ms = median(results.map((r) => r.ms));
  const floor = median(results.map((r) => r.floorMs));
  console.log(
    `| ${results[0].name} | ${ms.toFixed(0)} ms | ${floor.toFixed(0)} ms | ${median(results.map((r) => r.ms / r.floorMs)).toFixed(1)}× | ${results[0].note} |`,
  );
}
