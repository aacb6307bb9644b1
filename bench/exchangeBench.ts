// The exports and the SARIF import on large inputs, each against a floor measured in the same run:
// JSON.stringify of the review for the exports, JSON.parse of the log for the import. Run by
// bench/exchange.mjs.

import { findingFingerprint, type ExportedFinding, type ExportedReview } from '../shared/exchange/exportedReview';
import { toMarkdown } from '../shared/exchange/markdownExport';
import { toRdjsonl } from '../shared/exchange/rdjsonl';
import { MAX_SARIF_RESULTS, toSarif } from '../shared/exchange/sarifExport';
import { DEFAULT_MAX_SARIF_BYTES, fromSarif } from '../shared/exchange/sarifImport';
import { FINDING_SEVERITIES, FINDING_STATES } from '../shared/findingTerms';

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

/** A log of the largest size the import reads: Redline's export of as many findings as fit. */
function largestLog(): string {
  const one = JSON.stringify(toSarif(reviewOf(1000)).log).length / 1000;
  const count = Math.min(MAX_SARIF_RESULTS, Math.floor((DEFAULT_MAX_SARIF_BYTES * 0.95) / one));
  const log = toSarif(reviewOf(count)).log;
  // Pad the run up to the size limit with copies of its results: results past the cap are counted, not read.
  const results = log.runs[0].results!;
  let text = JSON.stringify(log);
  while (text.length < DEFAULT_MAX_SARIF_BYTES * 0.95) {
    results.push(...results.slice(0, 1000));
    text = JSON.stringify(log);
  }
  return text;
}

/** The second of two runs: the first compiles the code and grows the heap, which is not what is measured. */
function time(run: () => unknown): number {
  run();
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function measure(row: string): { name: string; ms: number; floorMs: number; note: string } {
  const review25k = reviewOf(MAX_SARIF_RESULTS);
  const review1k = reviewOf(1000);
  switch (row) {
    case 'sarif':
      return {
        name: `toSarif + JSON.stringify, ${MAX_SARIF_RESULTS} findings`,
        ms: time(() => JSON.stringify(toSarif(review25k).log)),
        floorMs: time(() => JSON.stringify(review25k)),
        note: `${(JSON.stringify(toSarif(review25k).log).length / 2 ** 20).toFixed(1)} MiB`,
      };
    case 'rdjsonl':
      return {
        name: `toRdjsonl, ${MAX_SARIF_RESULTS} findings`,
        ms: time(() => toRdjsonl(review25k)),
        floorMs: time(() => JSON.stringify(review25k)),
        note: `${(toRdjsonl(review25k).length / 2 ** 20).toFixed(1)} MiB`,
      };
    case 'markdown':
      return {
        name: `toMarkdown, ${MAX_SARIF_RESULTS} findings`,
        ms: time(() => toMarkdown(review25k)),
        floorMs: time(() => JSON.stringify(review25k)),
        note: `${(toMarkdown(review25k).length / 2 ** 20).toFixed(1)} MiB`,
      };
    case 'import1k': {
      const text = JSON.stringify(toSarif(review1k).log);
      return {
        name: 'fromSarif, Redline export of 1,000 findings',
        ms: time(() => fromSarif(text)),
        floorMs: time(() => JSON.parse(text)),
        note: `${(text.length / 2 ** 20).toFixed(1)} MiB log`,
      };
    }
    case 'importLargest': {
      const text = largestLog();
      return {
        name: 'fromSarif, a log at the size limit (1,000 read, the rest counted)',
        ms: time(() => fromSarif(text)),
        floorMs: time(() => JSON.parse(text)),
        note: `${(text.length / 2 ** 20).toFixed(1)} MiB log`,
      };
    }
    default:
      throw new Error(`no row ${row}`);
  }
}

export const ROWS = ['sarif', 'rdjsonl', 'markdown', 'import1k', 'importLargest'];
