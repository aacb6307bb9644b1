// A SARIF log read into the results a review will list: parsed once, its version checked, its runs
// and results checked one at a time against sarifShape.ts, each result with its rule and where it
// points. Everything the log holds is counted against one budget (sarifBounds.ts): past it, or past
// the findings a review lists, the rest is counted by the array's length, never examined.

import { formatSize } from '../byteSize';
import { MAX_FINDINGS, MAX_IMPORTED_RUNS } from '../protocol';
import { ExaminedValues } from './sarifBounds';
import { RUN_PROPERTY } from './sarifKeys';
import { SarifImportError } from './sarifImportError';
import { locationOf, type ResultLocation } from './sarifPlaces';
import { RuleIndex, type FoundRule } from './sarifRules';
import { describeIssue, SarifLog, SarifResult, SarifRun, trimResult, trimRun } from './sarifShape';

export const FILTER_ADVICE =
  'Open a smaller log: filter it to fewer results (by rule, severity or folder) with the tool that wrote it.';

export interface ReadRun {
  readonly run: SarifRun;
  readonly rules: RuleIndex;
  /** Written by Redline's export: its rules are severities, and its properties are Redline's. */
  readonly fromRedline: boolean;
}

export interface ReadResult {
  /** Its run, in ReadLog.runs. */
  readonly run: number;
  readonly result: SarifResult;
  readonly rule: FoundRule;
  readonly location?: ResultLocation;
}

/** What was not listed, and why. */
export interface ReadCounts {
  /** Not valid SARIF results. */
  unreadable: number;
  /** Past the findings a review lists. */
  omitted: number;
  /** Past what the import examines of one log. */
  notRead: number;
}

export interface ReadLog {
  readonly runs: readonly ReadRun[];
  readonly results: readonly ReadResult[];
  readonly counts: ReadCounts;
  /** Runs past MAX_IMPORTED_RUNS. */
  readonly skippedRuns: number;
  /** Findings Redline's own export says it already left out. */
  readonly cutWhenWritten: number;
  /** Whether the log is one run of Redline's own export. */
  readonly onlyRedline: boolean;
  /** Whether any result says nothing at all: a log of no results. */
  readonly empty: boolean;
}

export function readLog(text: string, maxBytes: number): ReadLog {
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
  const examined = new ExaminedValues();
  const runs: ReadRun[] = examined.items(log.data.runs, MAX_IMPORTED_RUNS).map((raw, index) => {
    const run = SarifRun.safeParse(trimRun(raw, examined));
    if (!run.success)
      throw new SarifImportError(
        `The SARIF log has a run that is not valid: ${describeIssue(run.error, `runs[${index}]`)}.`,
      );
    return { run: run.data, rules: new RuleIndex(run.data, examined), fromRedline: isRedline(run.data) };
  });
  const counts: ReadCounts = { unreadable: 0, omitted: 0, notRead: 0 };
  const results: ReadResult[] = [];
  let total = 0;
  runs.forEach((read, runIndex) => {
    const raw = read.run.results ?? [];
    total += raw.length;
    for (let i = 0; i < raw.length; i++) {
      if (results.length >= MAX_FINDINGS) {
        counts.omitted += raw.length - i;
        return;
      }
      if (!examined.take()) {
        counts.notRead += raw.length - i;
        return;
      }
      const parsed = SarifResult.safeParse(trimResult(raw[i], examined));
      if (!parsed.success) {
        counts.unreadable++;
        continue;
      }
      const result = parsed.data;
      results.push({
        run: runIndex,
        result,
        rule: read.rules.of(result),
        location: locationOf(result.locations, read.run),
      });
    }
  });
  return {
    runs,
    results,
    counts,
    skippedRuns: log.data.runs.length - runs.length,
    cutWhenWritten: runs.reduce((sum, read) => sum + omittedWhenWritten(read.run), 0),
    onlyRedline: runs.length === 1 && runs[0].fromRedline,
    empty: total === 0,
  };
}

export const isRedline = (run: SarifRun): boolean => run.tool.driver.name === 'Redline';

/** What Redline's export says it cut from a run, when it says so with a count. */
function omittedWhenWritten(run: SarifRun): number {
  const omitted = isRedline(run) ? run.properties?.[RUN_PROPERTY.omittedResults] : undefined;
  return typeof omitted === 'number' && Number.isSafeInteger(omitted) && omitted > 0 ? omitted : 0;
}
