// Any SARIF 2.1.0 log as a review: a markdown list item per result, in the shape Redline's renderer
// takes for a finding (a severity label, then the result's `file:line-end`), grouped by run and by
// rule, with the state and replies of each finding beside it for the window to restore.
// The log is untrusted: it is checked piece by piece (sarifShape.ts), cut to what a review can list,
// and refused, with the reason and what to do, when it or the review it makes is over budget.

import { formatSize } from '../byteSize';
import type { FindingState } from '../findingTerms';
import { budgetRefusal, formatCount, SPLIT_ADVICE } from '../reviewBudget';
import { MAX_FINDINGS, MAX_REVIEW_BYTES } from '../protocol/limits';
import { findingFingerprint, type ExportedReply } from './exportedReview';
import { FINGERPRINT_KEY, RUN_PROPERTY } from './sarifExport';
import { idOf, labelOf, repliesOf, stateOf } from './sarifAnswers';
import { messageMarkdown } from './sarifMessages';
import { logicalNameOf, placeOf } from './sarifPlaces';
import { RuleIndex } from './sarifRules';
import { describeIssue, SarifLog, SarifResult, SarifRun, type SarifRule, type SarifToolComponent } from './sarifShape';
import { ImportedReviewWriter } from './importedReviewWriter';
import { SarifImportError } from './sarifImportError';

export interface ImportedFinding {
  /** Redline's own, when the log is Redline's export; else made from the file and the title. */
  readonly fingerprint: string;
  /** The finding's id in the review that was exported, when the log is Redline's. */
  readonly id?: string;
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
  readonly state: FindingState;
  readonly replies: ExportedReply[];
  /** 1-based line of its block in `markdown`. */
  readonly markdownLine: number;
}

export interface ImportedReview {
  readonly title: string;
  readonly markdown: string;
  readonly findings: ImportedFinding[];
}

export { SarifImportError };

/** A log larger than this is refused before it is parsed: four times the largest review it could make. */
export const DEFAULT_MAX_SARIF_BYTES = 4 * MAX_REVIEW_BYTES;
/** Runs read at most: a log of many empty runs costs work and says nothing. */
export const MAX_IMPORTED_RUNS = 100;

const FILTER_ADVICE =
  'Open a smaller log: filter it to fewer results (by rule, severity or folder) with the tool that wrote it.';

export function fromSarif(text: string, options: { maxBytes?: number } = {}): ImportedReview {
  try {
    return importLog(text, options.maxBytes ?? DEFAULT_MAX_SARIF_BYTES);
  } catch (error) {
    if (error instanceof SarifImportError) throw error;
    // Whatever a log can do to the code below, the caller gets an answer it can show.
    throw new SarifImportError(
      `The SARIF log could not be read: ${error instanceof Error ? error.message : String(error)}. Check that it is a SARIF 2.1.0 log.`,
    );
  }
}

function importLog(text: string, maxBytes: number): ImportedReview {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new SarifImportError(
      `The SARIF log is ${formatSize(bytes)}; the largest Redline opens is ${formatSize(maxBytes)}. ${FILTER_ADVICE}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new SarifImportError(
      `The file is not JSON (${error instanceof Error ? error.message : 'unreadable'}). A SARIF log is a JSON file, usually named *.sarif.`,
    );
  }
  const log = SarifLog.safeParse(json);
  if (!log.success) throw new SarifImportError(`The file is not a SARIF log: ${describeIssue(log.error, 'log')}.`);
  if (log.data.version !== '2.1.0') {
    throw new SarifImportError(
      `The log is SARIF ${JSON.stringify(log.data.version).slice(0, 40)}; Redline reads SARIF 2.1.0. Convert it first (for example with \`sarif-multitool transform\`).`,
    );
  }
  const runs = log.data.runs.slice(0, MAX_IMPORTED_RUNS).map((raw, index) => {
    const run = SarifRun.safeParse(raw);
    if (!run.success)
      throw new SarifImportError(
        `The SARIF log has a run that is not valid: ${describeIssue(run.error, `runs[${index}]`)}.`,
      );
    return run.data;
  });
  const onlyRedline = runs.length === 1 && isRedline(runs[0]);
  const title = titleOf(runs, onlyRedline);
  const writer = new ImportedReviewWriter(title, MAX_REVIEW_BYTES);
  const findings: ImportedFinding[] = [];
  const counts = { unreadable: 0, omitted: 0, listed: 0 };
  for (const run of runs) {
    if (!onlyRedline) writer.heading(2, toolName(run.tool.driver));
    findings.push(...writeRun(run, writer, counts));
  }
  const skippedRuns = log.data.runs.length - runs.length;
  const cutWhenWritten = runs.reduce((sum, run) => sum + omittedWhenWritten(run), 0);
  writer.notes([
    cutWhenWritten > 0
      ? `${count(cutWhenWritten, 'finding was', 'findings were')} already left out when Redline wrote the log (a run holds at most 25,000 results).`
      : undefined,
    counts.omitted > 0
      ? `${count(counts.omitted, 'more result was', 'more results were')} left out: a review lists at most ${formatCount(MAX_FINDINGS)}.`
      : undefined,
    counts.unreadable > 0
      ? `${count(counts.unreadable, 'result was', 'results were')} left out because ${counts.unreadable === 1 ? 'it is not a valid SARIF result' : 'they are not valid SARIF results'}.`
      : undefined,
    skippedRuns > 0
      ? `${count(skippedRuns, 'more run was', 'more runs were')} left out: Redline reads at most ${MAX_IMPORTED_RUNS}.`
      : undefined,
    counts.listed === 0 && counts.omitted === 0 ? 'The log has no results.' : undefined,
  ]);
  const markdown = writer.markdown();
  const refusal = budgetRefusal(markdown);
  if (refusal !== undefined) throw new SarifImportError(`${refusal.replace(SPLIT_ADVICE, '').trim()} ${FILTER_ADVICE}`);
  return { title, markdown, findings };
}

/**
 * A run's results, each as a finding (or a plain item when it has no file), under a heading per
 * rule in the order the rules first appear. Redline's own run keeps the review's order instead:
 * its rules are severities, which each item already says.
 */
function writeRun(
  run: SarifRun,
  writer: ImportedReviewWriter,
  counts: { unreadable: number; omitted: number; listed: number },
): ImportedFinding[] {
  const fromRedline = isRedline(run);
  const rules = new RuleIndex(run);
  const groups = new Map<string | undefined, Array<{ result: SarifResult; rule: SarifRule | undefined }>>();
  for (const raw of run.results ?? []) {
    if (counts.listed >= MAX_FINDINGS) {
      counts.omitted++;
      continue;
    }
    const parsed = SarifResult.safeParse(raw);
    if (!parsed.success) {
      counts.unreadable++;
      continue;
    }
    counts.listed++;
    const rule = rules.of(parsed.data);
    const key = fromRedline ? undefined : (parsed.data.ruleId ?? parsed.data.rule?.id ?? rule?.id);
    const group = groups.get(key) ?? [];
    group.push({ result: parsed.data, rule });
    groups.set(key, group);
  }
  const findings: ImportedFinding[] = [];
  for (const [ruleId, group] of groups) {
    if (!fromRedline) writer.heading(3, ruleId ?? 'Results without a rule', group[0].rule?.shortDescription?.text);
    for (const { result, rule } of group) {
      const finding = writeResult(result, rule, { run, rules, writer, fromRedline });
      if (finding !== undefined) findings.push(finding);
    }
  }
  return findings;
}

/** The result as an item; as a finding when it has a file the renderer can reference. */
function writeResult(
  result: SarifResult,
  rule: SarifRule | undefined,
  {
    run,
    rules,
    writer,
    fromRedline,
  }: { run: SarifRun; rules: RuleIndex; writer: ImportedReviewWriter; fromRedline: boolean },
): ImportedFinding | undefined {
  const place = placeOf(result.locations, run);
  const item = writer.item({
    label: labelOf(result, rule, fromRedline),
    place,
    message: messageMarkdown(result.message, rule, rules.componentOf(result)),
    fromRedline,
    elsewhere: place === undefined ? logicalNameOf(result.locations) : undefined,
  });
  if (place === undefined || item.title === undefined) return undefined;
  const written = result.partialFingerprints?.[FINGERPRINT_KEY];
  return {
    fingerprint:
      fromRedline && written !== undefined && /^[0-9a-f]{32}$/.test(written)
        ? written
        : findingFingerprint(place.file, item.title),
    id: fromRedline ? idOf(result) : undefined,
    file: place.file,
    line: place.line,
    endLine: place.endLine,
    state: stateOf(result),
    replies: fromRedline ? repliesOf(result) : [],
    markdownLine: item.line,
  };
}

const isRedline = (run: SarifRun): boolean => run.tool.driver.name === 'Redline';

/** What Redline's export says it cut from a run, when it says so with a count. */
function omittedWhenWritten(run: SarifRun): number {
  const omitted = isRedline(run) ? run.properties?.[RUN_PROPERTY.omittedResults] : undefined;
  return typeof omitted === 'number' && Number.isSafeInteger(omitted) && omitted > 0 ? omitted : 0;
}

function titleOf(runs: readonly SarifRun[], onlyRedline: boolean): string {
  const written = onlyRedline ? runs[0].properties?.[RUN_PROPERTY.title] : undefined;
  if (typeof written === 'string' && written.trim() !== '') return oneLine(written);
  const tools = [...new Set(runs.map((run) => oneLine(run.tool.driver.name)))];
  return tools.length === 0
    ? 'SARIF log'
    : `${tools.slice(0, 3).join(', ')}${tools.length > 3 ? ' and others' : ''}: SARIF results`;
}

function toolName(tool: SarifToolComponent): string {
  const version = tool.semanticVersion ?? tool.version;
  return oneLine(version === undefined ? tool.name : `${tool.name} ${version}`);
}

const count = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;
const oneLine = (text: string): string => text.slice(0, 800).replace(/\s+/g, ' ').trim().slice(0, 200);
