// `node bench/render.mjs`: host-side render medians, now against before the two-phase rework
// (BENCH_BEFORE, a commit; default the last one before it). Figures from a shared machine: read the ratios.

import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = process.env.BENCH_BEFORE ?? 'f4ebdb8';
const out = join(root, 'out', 'render-bench');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'before'), { recursive: true });
const archive = execFileSync('git', ['archive', base, 'extension/src/render', 'shared'], { cwd: root, maxBuffer: 1 << 26 });
execFileSync('tar', ['-x', '-C', join(out, 'before')], { input: archive });
writeFileSync(
  join(out, 'before.ts'),
  "export { renderReview } from './before/extension/src/render/markdownRenderer';\n" +
    "export { ReferenceResolver } from './before/extension/src/render/referenceResolver';\n",
);
const build = (entry, outfile) =>
  esbuild.buildSync({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', absWorkingDir: root });
build(join(out, 'before.ts'), join(out, 'before.cjs'));
build(join(root, 'bench', 'renderBench.ts'), join(out, 'bench.cjs'));

const report = JSON.parse(
  execFileSync(process.execPath, [join(out, 'bench.cjs')], {
    cwd: root,
    env: { ...process.env, REDLINE_RENDER_BEFORE: join(out, 'before.cjs') },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
const ms = (value) => (value === undefined ? '—' : `${value.toFixed(0)} ms`);
console.log(`Host-side render, medians of ${report.runs} runs, before = ${base}\n`);
console.log(`${'case'.padEnd(36)} ${'before'.padStart(10)} ${'after'.padStart(10)}`);
for (const r of report.results) console.log(`${r.name.padEnd(36)} ${ms(r.beforeMs).padStart(10)} ${ms(r.afterMs).padStart(10)}`);
