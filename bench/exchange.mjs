// `node bench/exchange.mjs`: the exports (SARIF, rdjsonl, markdown) and the SARIF import on the
// largest inputs they take, each beside a floor measured in the same process (JSON.stringify of
// the review, JSON.parse of the log). The import reads the largest logs from files as its worker
// does (a log from another machine, whose paths are found in a workspace of 14,800 files; the worst
// logs), and then its peak memory (the process's maximum resident set) is measured in a process of
// its own, beside a process that only reads and JSON.parses the same file. Medians of BENCH_RUNS
// (default 5) runs, each in a fresh process, on a shared machine: compare within a row.

import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
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
const { ROWS, MEMORY_ROWS, prepare } = await import(bench);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** One call of the bench module in a fresh process: its result as JSON on stdout. */
const inChild = (call, ...args) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '-e',
        `const [bench, ...args] = process.argv.slice(1); Promise.resolve(require(bench).${call}(...args)).then((r) => process.stdout.write(JSON.stringify(r)));`,
        bench,
        ...args,
      ],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 },
    ),
  );

const dir = prepare();
try {
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; medians of ${runs} runs\n`,
  );
  console.log('| what | time | floor (same process) | ratio | size |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of ROWS) {
    const results = Array.from({ length: runs }, () => inChild('measure', row, dir));
    const ms = median(results.map((r) => r.ms));
    const floor = median(results.map((r) => r.floorMs));
    console.log(
      `| ${results[0].name} | ${ms.toFixed(0)} ms | ${floor.toFixed(0)} ms | ${median(results.map((r) => r.ms / r.floorMs)).toFixed(1)}× | ${results[0].note} |`,
    );
  }
  console.log(
    '\n| log (read from its file) | peak memory, import | peak memory, JSON.parse alone | what the import made |',
  );
  console.log('| --- | --- | --- | --- |');
  for (const row of MEMORY_ROWS) {
    const imports = Array.from({ length: runs }, () => inChild('once', dir, row, 'import'));
    const parses = Array.from({ length: runs }, () => inChild('once', dir, row, 'parse'));
    console.log(
      `| ${row} | ${median(imports.map((r) => r.mb)).toFixed(0)} MiB | ${median(parses.map((r) => r.mb)).toFixed(0)} MiB | ${imports[0].outcome} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
