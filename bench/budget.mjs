// `node bench/budget.mjs`: the review budget against the audit's inputs (issue 32) and two real
// reviews, each at 10 MiB. For each: the render worker's time to render or refuse, its heap at the
// end and the process's peak RSS, with markdown-it alone on the same text as the floor, and the
// estimate before the parse (which the window runs first). Medians of BENCH_RUNS (default 3) runs,
// each in a fresh process, on a shared machine: compare within a row.

import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const out = join(root, 'out', 'budget-bench');
mkdirSync(out, { recursive: true });
const build = (name) => {
  const outfile = join(out, `${name}.cjs`);
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
};
const bench = build('budgetBench');
const worker = build('budgetWorker');
const { BENCH_ROWS } = await import(bench);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const one = (row, engine) =>
  JSON.parse(
    execFileSync(process.execPath, ['--max-old-space-size=4096', bench, String(row), engine, worker], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    }),
  );

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; medians of ${runs} runs\n`,
);
// The heap is the worker's own at the end (after its last collection, so below its peak); the
// peak RSS is the whole process's, whose main thread holds the text and about 100 MiB of its own.
console.log(
  "| input | estimate before the parse | render worker: time, heap at the end, process peak RSS | markdown-it alone: the same | worker's answer |",
);
console.log('| --- | --- | --- | --- | --- |');
for (let row = 0; row < BENCH_ROWS.length; row++) {
  const results = { redline: [], 'markdown-it': [] };
  for (let i = 0; i < runs; i++) {
    for (const engine of ['redline', 'markdown-it']) {
      process.stderr.write(`${BENCH_ROWS[row].name}: ${engine}, run ${i + 1}/${runs}…\n`);
      results[engine].push(one(row, engine));
    }
  }
  const cell = (list) =>
    `${(median(list.map((r) => r.ms)) / 1000).toFixed(2)} s, ${median(list.map((r) => r.heapTotalMiB)).toFixed(0)} MiB, ${median(list.map((r) => r.peakRssMiB)).toFixed(0)} MiB`;
  const [first] = results.redline;
  const estimate = `${median(results.redline.map((r) => r.preParseMs)).toFixed(0)} ms, ${first.preParse === 'accepted' ? 'accepted' : 'refused'}`;
  const answer = first.shown
    ? `shown: ${first.detail}`
    : `refused: ${first.detail.replace(/ Split it into.*$/, '').replace(/^The review has /, '')}`;
  console.log(
    `| ${BENCH_ROWS[row].name} | ${estimate} | ${cell(results.redline)} | ${cell(results['markdown-it'])} | ${answer} |`,
  );
}
