// Render on one thread, for `npm run bench`: markdown-it alone, markdown-it with highlight.js, and
// Redline's renderer of each build given (bench/renderSubject.ts, bundled per build by run.mjs),
// on the same reviews in one process, in a rotating order, so that a busy machine slows all alike.
// Prints one JSON object on stdout.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import hljs from 'highlight.js';
import MarkdownIt from 'markdown-it';
import { denseReview, findingsReview, imageOpeners, writeFixtureFiles } from './reviewFixtures';

type Render = (markdown: string) => unknown;

export interface RenderBenchReport {
  readonly runs: number;
  readonly subjects: readonly string[];
  readonly results: ReadonlyArray<{
    readonly name: string;
    readonly bytes: number;
    readonly samples: Record<string, number[]>;
  }>;
}

const runs = Number(process.env.BENCH_RUNS ?? 3);
const KiB = 1024;

/** The floor: Redline's markdown-it options (no HTML, URLs linked) and nothing of its own. */
const markdownIt = new MarkdownIt({ html: false, linkify: true });
/** The floor with code highlighted as Redline highlights it, by highlight.js on the host. */
const markdownItHljs = new MarkdownIt({
  html: false,
  linkify: true,
  highlight: (code, language) =>
    language && hljs.getLanguage(language) ? hljs.highlight(code, { language, ignoreIllegals: true }).value : '',
});

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-render-bench-'));
  try {
    writeFixtureFiles(root);
    const builds: Array<{ label: string; bundle: string }> = JSON.parse(process.env.REDLINE_BENCH_RENDERERS ?? '[]');
    const redline = await Promise.all(
      builds.map(async ({ label, bundle }): Promise<[string, Render]> => {
        // A CommonJS bundle: its module.exports is the namespace's default.
        const subject = (await import(pathToFileURL(bundle).href)).default as typeof import('./renderSubject');
        return [label, subject.createRender(root)];
      }),
    );
    const subjects: Array<[string, Render]> = [
      ['markdown-it', (markdown) => markdownIt.render(markdown)],
      ['markdown-it + highlight.js', (markdown) => markdownItHljs.render(markdown)],
      ...redline,
    ];
    // Small reviews vary most from one render to the next: they get more rounds, which cost little.
    const cases = [
      { name: '10 KiB', markdown: findingsReview(10 * KiB), rounds: runs * 10 },
      { name: '100 KiB', markdown: findingsReview(100 * KiB), rounds: runs * 5 },
      { name: '1 MiB', markdown: findingsReview(1024 * KiB), rounds: runs * 2 + 1 },
      { name: '70,000 references (2.4 MiB)', markdown: denseReview(70_000), rounds: runs },
      // markdown-it's label search made this quadratic; Redline's renderer guards against it.
      { name: '`![` × 100,000 (0.2 MiB)', markdown: imageOpeners(100_000), rounds: runs },
    ];
    const results = [];
    for (const { name, markdown, rounds } of cases) {
      process.stderr.write(`render, ${name}…\n`);
      const samples: Record<string, number[]> = Object.fromEntries(subjects.map(([label]) => [label, []]));
      // One render each first, uncounted: it compiles the code paths this size takes.
      for (const [, render] of subjects) await render(markdown);
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < subjects.length; k++) {
          const [label, render] = subjects[(round + k) % subjects.length];
          const started = performance.now();
          await render(markdown);
          samples[label].push(performance.now() - started);
        }
      }
      results.push({ name, bytes: markdown.length, samples });
    }
    process.stdout.write(
      JSON.stringify({ runs, subjects: subjects.map(([label]) => label), results } satisfies RenderBenchReport) + '\n',
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
