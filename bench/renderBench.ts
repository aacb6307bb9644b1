// Host-side render figures for `node bench/render.mjs`: the renderer as it is now against the one
// before the two-phase rework (bundled by the runner from git), alternated in one process so that a
// busy machine slows both alike. Prints one JSON object on stdout.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ReviewRenderer } from '../extension/src/render/reviewRenderer';
import { denseReview, imageOpeners, typicalReview, writeFixtureFiles } from './reviewFixtures';

type Render = (markdown: string, root: string) => Promise<unknown> | unknown;

const runs = Number(process.env.BENCH_RUNS ?? 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function loadBefore(): Render | undefined {
  const bundle = process.env.REDLINE_RENDER_BEFORE;
  if (!bundle) return undefined;
  const before = require(bundle) as { renderReview(markdown: string, resolver: unknown): unknown; ReferenceResolver: new (roots: string[]) => unknown };
  return (markdown, root) => before.renderReview(markdown, new before.ReferenceResolver([root]));
}

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-render-bench-'));
  try {
    writeFixtureFiles(root);
    // One renderer for all runs, as in a window: the line counts are cached after the first render.
    const renderer = new ReviewRenderer(() => [root]);
    const after: Render = (markdown) => renderer.renderFragment(markdown, undefined);
    const before = loadBefore();
    const cases: Array<{ name: string; markdown: string; skipBefore?: boolean }> = [
      { name: 'typical review, 1 MiB', markdown: typicalReview(1024 * 1024) },
      { name: 'dense review, 70,000 references', markdown: denseReview(70_000) },
      { name: '`![` x 100,000 (0.2 MiB)', markdown: imageOpeners(100_000) },
      { name: '`![` x 400,000 (0.8 MiB)', markdown: imageOpeners(400_000), skipBefore: true },
      { name: '`![` x 5,000,000 (10 MiB)', markdown: imageOpeners(5_000_000), skipBefore: true },
    ];
    const results = [];
    for (const { name, markdown, skipBefore } of cases) {
      const times: Record<'before' | 'after', number[]> = { before: [], after: [] };
      const caseRuns = markdown.length > 4 * 1024 * 1024 ? Math.min(runs, 3) : runs;
      for (let i = 0; i < caseRuns; i++) {
        for (const [label, render] of [['after', after], ['before', skipBefore ? undefined : before]] as const) {
          if (!render) continue;
          const started = performance.now();
          await render(markdown, root);
          times[label].push(performance.now() - started);
        }
      }
      results.push({
        name,
        bytes: markdown.length,
        afterMs: median(times.after),
        beforeMs: times.before.length ? median(times.before) : undefined,
      });
    }
    process.stdout.write(JSON.stringify({ runs, results }) + '\n');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
