// The exports and the SARIF import on large inputs, each against a floor measured in the same run:
// JSON.stringify of the review for the exports, JSON.parse of the log for the import. The import's
// rows read the largest logs from a file, as the import worker does (its file read, parse, checks,
// paths found in a workspace, markdown), and each row's peak memory is measured in a process of its
// own, beside a process that only reads and parses the same file. Run by bench/exchange.mjs.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { findingFingerprint, type ExportedFinding, type ExportedReview } from '../shared/exchange/exportedReview';
import { MAX_SARIF_FILE_BYTES } from '../shared/exchange/importRequest';
import { toMarkdown } from '../shared/exchange/markdownExport';
import { toRdjsonl } from '../shared/exchange/rdjsonl';
import { MAX_SARIF_RESULTS, toSarif } from '../shared/exchange/sarifExport';
import { fromSarif } from '../shared/exchange/sarifImport';
import { FINDING_SEVERITIES, FINDING_STATES } from '../shared/findingTerms';
import { runImportJob } from '../extension/src/exchange/importJob';

function reviewOf(count: number): ExportedReview {
  const findings: ExportedFinding[] = Array.from({ length: count }, (_, i) => {
    const file = `src/module${i % 200}/file${i % 37}.ts`;
    const title = `the retry in handler ${i} never stops when the queue is empty`;
    return {
      id: `f-${i.toString(36).padStart(12, '0')}`,
      fingerprint: findingFingerprint(file, title),
      severity: FINDING_SEVERITIES[i % FINDING_SEVERITIES.length],
      title,
      markdown: `- **bug**: ${title} \`${file}:${i + 1}\`\n  It loops while \`pending > 0\`, and nothing lowers \`pending\` when a task fails.`,
      file,
      line: i + 1,
      endLine: i + 3,
      state: FINDING_STATES[i % FINDING_STATES.length],
      stale: i % 11 === 0,
      replies: i % 3 === 0 ? [{ text: 'Fixed in the next commit.', at: '2026-11-27T07:00:00.000Z' }] : [],
      suggestions: i % 5 === 0 ? ['while (pending > 0 && !failed) {'] : [],
    };
  });
  return {
    title: 'Bench review',
    revision: 1,
    markdown: findings.map((f) => f.markdown).join('\n'),
    repositoryRoot: '/home/dev/project',
    findings,
    toolVersion: '0.1.0',
  };
}

/** Just under the size the import reads. */
const LARGEST = MAX_SARIF_FILE_BYTES - 64 * 1024;

/** Redline's export of as many findings as fit, its run padded to the size limit with copies of its results. */
function largestExport(): string {
  const log = toSarif(reviewOf(MAX_SARIF_RESULTS)).log;
  const results = log.runs[0].results!;
  let text = JSON.stringify(log);
  while (text.length < LARGEST * 0.95) {
    results.push(...results.slice(0, 1000));
    text = JSON.stringify(log);
  }
  return text;
}

/**
 * An ESLint-shaped log from another machine: absolute file:/// paths on a CI runner, no roots, as
 * many results as fit, over files a workspace holds (writeWorkspace): each path is found by its end.
 */
function foreignLog(): string {
  const result = (i: number) =>
    `{"ruleId":"no-unused-vars","ruleIndex":0,"level":"warning","message":{"text":"'value${i}' is assigned a value but never used."},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///home/runner/work/app/app/src/module${i % 200}/file${i % 37}.js"},"region":{"startLine":${(i % 50) + 1},"startColumn":7,"endLine":${(i % 50) + 1},"endColumn":19}}}]}`;
  const head =
    '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"ESLint","informationUri":"https://eslint.org","rules":[{"id":"no-unused-vars","helpUri":"https://eslint.org/docs/latest/rules/no-unused-vars"}]}},"results":[';
  const parts: string[] = [];
  let size = head.length;
  for (let i = 0; size < LARGEST - 1024; i++) {
    const next = result(i);
    parts.push(next);
    size += next.length + 1;
  }
  return `${head}${parts.join(',')}]}]}`;
}

/** The worst log: results that are all `0`, every one failing the result check. */
function zerosLog(): string {
  const head = '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Worst"}},"results":[';
  return `${head}0${',0'.repeat(Math.floor((LARGEST - head.length) / 2) - 1)}]}]}`;
}

/** A `{0}` placeholder repeated in every message, with a 2 KB argument. */
function placeholderLog(): string {
  const result = `{"ruleId":"r","message":{"text":"${'{0}'.repeat(13_000)}","arguments":["${'x'.repeat(2048)}"]},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/a.ts"},"region":{"startLine":1}}}]}`;
  const head = '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Placeholders"}},"results":[';
  const count = Math.floor((LARGEST - head.length) / (result.length + 1));
  return `${head}${new Array(count).fill(result).join(',')}]}]}`;
}

const LOGS: Record<string, { name: string; make: () => string }> = {
  largestExport: { name: "Redline's export of 25,000 findings, padded to the limit", make: largestExport },
  foreign: { name: 'ESLint-shaped, absolute paths from another machine, found by their ends', make: foreignLog },
  zeros: { name: 'results that are all `0`', make: zerosLog },
  placeholders: { name: '`{0}` repeated in each message with a 2 KB argument (refused)', make: placeholderLog },
};

/** Writes the logs and a workspace (14,800 files) holding the files the logs name, once; returns where. */
export function prepare(): string {
  const dir = mkdtempSync(join(tmpdir(), 'redline-exchange-bench-'));
  for (const [key, { make }] of Object.entries(LOGS)) writeFileSync(join(dir, `${key}.sarif`), make());
  for (let m = 0; m < 200; m++) {
    mkdirSync(join(dir, 'workspace', 'src', `module${m}`), { recursive: true });
    for (let f = 0; f < 37; f++)
      for (const extension of ['js', 'ts'])
        writeFileSync(
          join(dir, 'workspace', 'src', `module${m}`, `file${f}.${extension}`),
          'const a = 1;\n'.repeat(60),
        );
  }
  return dir;
}

/** The second of two runs: the first compiles the code and grows the heap, which is not what is measured. */
async function time(run: () => unknown): Promise<number> {
  await run();
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const jobOf = (dir: string, key: string) => ({
  source: { path: join(dir, `${key}.sarif`) },
  name: `${key}.sarif`,
  workspace: { roots: [join(dir, 'workspace')], cwd: join(dir, 'workspace') },
});

/** One import, or one read and parse, of the log `key` in `dir`, in this process: its peak memory is the process's. */
export async function once(
  dir: string,
  key: string,
  what: 'import' | 'parse',
): Promise<{ mb: number; outcome: string }> {
  let outcome: string;
  if (what === 'import') {
    const reply = await runImportJob(jobOf(dir, key));
    outcome = reply.ok ? `${reply.request.params.findings.length} findings` : 'refused';
  } else {
    outcome = `${(JSON.parse(readFileSync(join(dir, `${key}.sarif`), 'utf8')) as { runs: unknown[] }).runs.length} runs`;
  }
  return { mb: process.resourceUsage().maxRSS / 1024, outcome };
}

export async function measure(
  row: string,
  dir: string,
): Promise<{ name: string; ms: number; floorMs: number; note: string }> {
  if (row in LOGS) {
    const file = join(dir, `${row}.sarif`);
    return {
      name: `import: ${LOGS[row].name}`,
      ms: await time(() => runImportJob(jobOf(dir, row))),
      floorMs: await time(() => JSON.parse(readFileSync(file, 'utf8'))),
      note: `${(readFileSync(file).length / 2 ** 20).toFixed(1)} MiB log`,
    };
  }
  const review25k = reviewOf(MAX_SARIF_RESULTS);
  const review1k = reviewOf(1000);
  switch (row) {
    case 'sarif':
      return {
        name: `toSarif + JSON.stringify, ${MAX_SARIF_RESULTS} findings`,
        ms: await time(() => JSON.stringify(toSarif(review25k).log)),
        floorMs: await time(() => JSON.stringify(review25k)),
        note: `${(JSON.stringify(toSarif(review25k).log).length / 2 ** 20).toFixed(1)} MiB`,
      };
    case 'rdjsonl':
      return {
        name: `toRdjsonl, ${MAX_SARIF_RESULTS} findings`,
        ms: await time(() => toRdjsonl(review25k)),
        floorMs: await time(() => JSON.stringify(review25k)),
        note: `${(toRdjsonl(review25k).length / 2 ** 20).toFixed(1)} MiB`,
      };
    case 'markdown':
      return {
        name: `toMarkdown, ${MAX_SARIF_RESULTS} findings`,
        ms: await time(() => toMarkdown(review25k)),
        floorMs: await time(() => JSON.stringify(review25k)),
        note: `${(toMarkdown(review25k).length / 2 ** 20).toFixed(1)} MiB`,
      };
    case 'import1k': {
      const text = JSON.stringify(toSarif(review1k).log);
      return {
        name: 'fromSarif, Redline export of 1,000 findings (in memory)',
        ms: await time(() => fromSarif(text)),
        floorMs: await time(() => JSON.parse(text)),
        note: `${(text.length / 2 ** 20).toFixed(1)} MiB log`,
      };
    }
    default:
      throw new Error(`no row ${row}`);
  }
}

export const ROWS = ['sarif', 'rdjsonl', 'markdown', 'import1k', ...Object.keys(LOGS)];
/** The rows whose peak memory is measured, beside JSON.parse of the same file. */
export const MEMORY_ROWS = Object.keys(LOGS);
