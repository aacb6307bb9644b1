// The real-VS-Code figures of the performance table (README "Performance"), as the timing tests
// measure them: what the user sees in the webview, timed from the assistant's call, and beside
// them VS Code's own Markdown preview of the same text with markdown-it alone. They are printed
// as tables at the end of the timing tests and written to
// test-artifacts/e2e-ui-performance.json, so that runs of two builds (`run.mjs --vsix`) can be
// set side by side. Figures, never thresholds: the tests assert only what the user gets.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import MarkdownIt from 'markdown-it';
import { ARTIFACTS_DIR } from '../harness/workbench.mjs';
import { REPO_ROOT } from '../harness/install.mjs';

/** Redline's markdown-it options, nothing of its own: the floor beside a figure. */
const markdownIt = new MarkdownIt({ html: false, linkify: true });

/** @typedef {{ measure: string, ms?: number, samples?: number[], floorMs?: number, detail?: string }} Figure */

/** @type {Map<string, Figure>} measured so far, by key, in the order of the table */
const figures = new Map();

/**
 * @typedef {object} SideBySide one size, Redline and VS Code's Markdown preview alternated in one window
 * @property {import('./sideBySide.mjs').Shown[]} redline
 * @property {import('./sideBySide.mjs').Shown[]} preview  empty: not measured in this run
 * @property {number[]} floorMs  markdown-it alone on the same text, in this process
 * @property {number} [previewTimeoutMs]  how long the preview was given
 */
/** @type {Map<string, SideBySide>} by size, e.g. "1 MiB" */
const sideBySide = new Map();

/** Records one run of a size, Redline's or the preview's. @param {string} size @param {Partial<SideBySide>} run */
export function recordSideBySide(size, { redline = [], preview = [], floorMs = [], previewTimeoutMs }) {
  const entry = sideBySide.get(size) ?? { redline: [], preview: [], floorMs: [] };
  entry.redline.push(...redline);
  entry.preview.push(...preview);
  entry.floorMs.push(...floorMs);
  if (previewTimeoutMs !== undefined) entry.previewTimeoutMs = previewTimeoutMs;
  sideBySide.set(size, entry);
}

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Records a figure under `key` (a stable name for the JSON). @param {string} key @param {Figure} figure */
export function record(key, figure) {
  figures.set(key, figure);
}

/**
 * markdown-it alone on `markdown`, in this process, in ms: one render, after the review's own
 * figures (a 10 MiB render costs seconds on a busy machine, and the suite runs in every `npm test`).
 * @param {string} markdown
 */
export function markdownItFloor(markdown) {
  const started = performance.now();
  markdownIt.render(markdown);
  return performance.now() - started;
}

const ms = (/** @type {number | undefined} */ value) =>
  value === undefined ? '' : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;

/** The figure's value as the table shows it: the median with the range, or the one time. @param {Figure} figure */
function shown(figure) {
  if (figure.samples?.length) {
    const sorted = [...figure.samples].sort((a, b) => a - b);
    return `${ms(median(sorted))} (${ms(sorted[0])}–${ms(sorted[sorted.length - 1])}, ${sorted.length} calls)`;
  }
  return `${ms(figure.ms)}${figure.detail ? ` (${figure.detail})` : ''}`;
}

/** `rows` under `header` as a markdown table, padded to line up. @param {string[]} header @param {string[][]} rows */
function printTable(header, rows) {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (/** @type {string[]} */ cells) =>
    `      | ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |\n`;
  process.stdout.write(
    `\n${line(header)}${line(widths.map((width) => '-'.repeat(width)))}${rows.map(line).join('')}\n`,
  );
}

/** The median of what was measured, with the range and the count; `missing` for runs that never got there. @param {(number | undefined)[]} values */
function spread(values) {
  const measured = /** @type {number[]} */ (values.filter((value) => value !== undefined));
  const missing = values.length - measured.length;
  if (measured.length === 0) return values.length ? `not within the wait (${values.length} runs)` : '—';
  const sorted = [...measured].sort((a, b) => a - b);
  const range = sorted.length > 1 ? ` (${ms(sorted[0])}–${ms(sorted[sorted.length - 1])}, ${sorted.length} runs)` : '';
  return `${ms(median(sorted))}${range}${missing ? `; ${missing} not within the wait` : ''}`;
}

/** A median as a multiple of the floor's. @param {(number | undefined)[]} values @param {number[]} floors */
function times(values, floors) {
  const measured = /** @type {number[]} */ (values.filter((value) => value !== undefined));
  return measured.length && floors.length ? `${(median(measured) / median(floors)).toFixed(1)}×` : '—';
}

function printSideBySide() {
  if (sideBySide.size === 0) return;
  const rows = [...sideBySide].map(([size, { redline, preview, floorMs, previewTimeoutMs }]) => {
    const previewLast = preview.length
      ? spread(preview.map((run) => run.lastMs))
      : `not measured (REDLINE_E2E_TIMING=full)`;
    return [
      size,
      spread(redline.map((run) => run.lastMs)),
      previewLast + (preview.length && previewTimeoutMs ? `, of ${ms(previewTimeoutMs)} allowed` : ''),
      spread(floorMs),
      `${times(
        redline.map((run) => run.lastMs),
        floorMs,
      )} / ${times(
        preview.map((run) => run.lastMs),
        floorMs,
      )}`,
      `${spread(redline.map((run) => run.firstMs))} / ${spread(preview.map((run) => run.firstMs))}`,
      `${spread(redline.map((run) => run.slowestCallMs))} / ${spread(preview.map((run) => run.slowestCallMs))}`,
    ];
  });
  printTable(
    [
      'review',
      'Redline: call → last heading on screen',
      "VS Code's Markdown preview: command → last heading on screen",
      'markdown-it alone',
      '÷ markdown-it: Redline / preview',
      'first heading on screen: Redline / preview',
      "another assistant's slowest get-selection: Redline / preview",
    ],
    rows,
  );
}

/** @param {string} [vsix] the build tested */
export function printAndWrite(vsix) {
  if (figures.size === 0 && sideBySide.size === 0) return;
  const rows = [...figures.values()].map((figure) => [figure.measure, shown(figure), ms(figure.floorMs)]);
  if (rows.length) printTable(['measure (real VS Code, code-server)', 'value', 'markdown-it alone, same text'], rows);
  printSideBySide();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, 'e2e-ui-performance.json');
  const report = {
    at: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    ci: process.env.CI === 'true',
    vsix,
    commit: gitCommit(),
    load: loadavg(),
    figures: Object.fromEntries(figures),
    sideBySide: Object.fromEntries(sideBySide),
  };
  writeFileSync(file, JSON.stringify(report, null, 1) + '\n');
  process.stdout.write(`      figures: ${file.slice(REPO_ROOT.length + 1)}\n`);
}

function gitCommit() {
  try {
    return execFileSync('git', ['-C', REPO_ROOT, 'log', '-1', '--format=%h'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}
