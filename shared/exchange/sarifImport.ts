// Any SARIF 2.1.0 log as a review: a markdown list item per result, in the shape Redline's renderer
// takes for a finding (a severity label, then the result's `file:line-end`), grouped by run and by
// rule, with the state and replies of each finding beside it for the window to restore.
// The log is untrusted: it is checked piece by piece (sarifShape.ts), cut to what a review can list,
// and refused, with the reason and what to do, when it or the review it makes is over budget.

import type { FindingState } from '../findingTerms';
import { budgetRefusal, formatCount, SPLIT_ADVICE } from '../reviewBudget';
import { MAX_REVIEW_BYTES } from '../protocol/limits';
import { findingFingerprint, type ExportedReply } from './exportedReview';
import { FINGERPRINT_KEY, RUN_PROPERTY } from './sarifExport';
import { idOf, labelOf, repliesOf, stateOf } from './sarifAnswers';
import { messageMarkdown } from './sarifMessages';
import { logicalNameOf, placeOf } from './sarifPlaces';
import { describeIssue, SarifLog, SarifResult, SarifRule, SarifRun, type SarifToolComponent } from './sarifShape';
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
/** Results listed at most; the same as the renderer's MAX_FINDINGS, past which a finding gets no thread. */
export const MAX_IMPORTED_RESULTS = 1000;
/** Runs read at most: a log of many empty runs costs work and says nothing. */
export const MAX_IMPORTED_RUNS = 100;
/** Rules indexed per tool component, for results that name their rule by id only. */
const MAX_INDEXED_RULES = 20_000;

const FILTER_ADVICE = 'Open a smaller log: filter it to fewer results (by rule, severity or folder) with the tool that wrote it.';

export function fromSarif(text: string, options: { maxBytes?: number } = {}): ImportedReview {
  try {
    return importLog(text, options.maxBytes ?? DEFAULT_MAX_SARIF_BYTES);
  } catch (error) {
    if (error instanceof SarifImportError) throw error;
    // Whatever a log can do to the code below, the caller gets an answer it can show.
    throw new SarifImportError(`The SARIF log could not be read: ${error instanceof Error ? error.message : String(error)}. Check that it is a SARIF 2.1.0 log.`);
  }
}

function importLog(text: string, maxBytes: number): ImportedReview {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new SarifImportError(`The SARIF log is ${mib(bytes)}; the largest Redline opens is ${mib(maxBytes)}. ${FILTER_ADVICE}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new SarifImportError(`The file is not JSON (${error instanceof Error ? error.message : 'unreadable'}). A SARIF log is a JSON file, usually named *.sarif.`);
  }
  const log = SarifLog.safeParse(json);
  if (!log.success) throw new SarifImportError(`The file is not a SARIF log: ${describeIssue(log.error, 'log')}.`);
  if (log.data.version !== '2.1.0') {
    throw new SarifImportError(`The log is SARIF ${JSON.stringify(log.data.version).slice(0, 40)}; Redline reads SARIF 2.1.0. Convert it first (for example with \`sarif-multitool transform\`).`);
  }
  const runs = log.data.runs.slice(0, MAX_IMPORTED_RUNS).map((raw, index) => {
    const run = SarifRun.safeParse(raw);
    if (!run.success) throw new SarifImportError(`The SARIF log has a run that is not valid: ${describeIssue(run.error, `runs[${index}]`)}.`);
    return run.data;
  });
  const onlyRedline = runs.length === 1 && isRedline(runs[0]);
  const title = titleOf(runs, onlyRedline);
  const writer = new ImportedReviewWriter(title, MAX_REVIEW_BYTES);
  const findings: ImportedFinding[] = [];
  let unreadable = 0;
  let omitted = 0;
  let listed = 0;
  for (const run of runs) {
    const fromRedline = isRedline(run);
    if (!onlyRedline) writer.heading(2, toolName(run.tool.driver));
    const rules = new RuleIndex(run);
    let lastRule: string | undefined;
    for (const raw of run.results ?? []) {
      if (listed >= MAX_IMPORTED_RESULTS) {
        omitted++;
        continue;
      }
      const parsed = SarifResult.safeParse(raw);
      if (!parsed.success) {
        unreadable++;
        continue;
      }
      listed++;
      const result = parsed.data;
      const rule = rules.of(result);
      const ruleId = result.ruleId ?? result.rule?.id ?? rule?.id;
      if (!fromRedline && ruleId !== lastRule) {
        writer.heading(3, ruleId === undefined ? 'Results without a rule' : ruleId, rule?.shortDescription?.text);
        lastRule = ruleId;
      }
      const label = labelOf(result, rule, fromRedline);
      const message = messageMarkdown(result.message, rule, rules.componentOf(result));
      const place = placeOf(result.locations, run);
      const item = writer.item({ label, place, message, fromRedline, elsewhere: place === undefined ? logicalNameOf(result.locations) : undefined });
      if (place === undefined || item.title === undefined) continue;
      const written = result.partialFingerprints?.[FINGERPRINT_KEY];
      findings.push({
        fingerprint: fromRedline && written !== undefined && /^[0-9a-f]{32}$/.test(written) ? written : findingFingerprint(place.file, item.title),
        id: fromRedline ? idOf(result) : undefined,
        file: place.file,
        line: place.line,
        endLine: place.endLine,
        state: stateOf(result),
        replies: fromRedline ? repliesOf(result) : [],
        markdownLine: item.line,
      });
    }
  }
  const skippedRuns = log.data.runs.length - runs.length;
  writer.notes([
    omitted > 0 ? `${formatCount(omitted)} more results were left out: a review lists at most ${formatCount(MAX_IMPORTED_RESULTS)}.` : undefined,
    unreadable > 0 ? `${formatCount(unreadable)} results were left out because they are not valid SARIF results.` : undefined,
    skippedRuns > 0 ? `${formatCount(skippedRuns)} more runs were left out: Redline reads at most ${MAX_IMPORTED_RUNS}.` : undefined,
    listed === 0 && omitted === 0 ? 'The log has no results.' : undefined,
  ]);
  const markdown = writer.markdown();
  const refusal = budgetRefusal(markdown);
  if (refusal !== undefined) throw new SarifImportError(`${refusal.replace(SPLIT_ADVICE, '').trim()} ${FILTER_ADVICE}`);
  return { title, markdown, findings };
}

const isRedline = (run: SarifRun): boolean => run.tool.driver.name === 'Redline';

function titleOf(runs: readonly SarifRun[], onlyRedline: boolean): string {
  const written = onlyRedline ? runs[0].properties?.[RUN_PROPERTY.title] : undefined;
  if (typeof written === 'string' && written.trim() !== '') return oneLine(written);
  const tools = [...new Set(runs.map((run) => oneLine(run.tool.driver.name)))];
  return tools.length === 0 ? 'SARIF log' : `${tools.slice(0, 3).join(', ')}${tools.length > 3 ? ' and others' : ''}: SARIF results`;
}

function toolName(tool: SarifToolComponent): string {
  const version = tool.semanticVersion ?? tool.version;
  return oneLine(version === undefined ? tool.name : `${tool.name} ${version}`);
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 200);
const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** A result's rule: by index in its tool component (the driver, or a CodeQL query pack), else by id. */
class RuleIndex {
  private readonly byId = new Map<SarifToolComponent, Map<string, number>>();
  constructor(private readonly run: SarifRun) {}

  componentOf(result: SarifResult): SarifToolComponent {
    const index = result.rule?.toolComponent?.index;
    return (index === undefined ? undefined : this.run.tool.extensions?.[index]) ?? this.run.tool.driver;
  }

  of(result: SarifResult): SarifRule | undefined {
    const component = this.componentOf(result);
    const rules = component.rules ?? [];
    const id = result.ruleId ?? result.rule?.id;
    let index = result.ruleIndex ?? result.rule?.index;
    if (index === undefined && id !== undefined) index = this.idsOf(component).get(id) ?? this.idsOf(component).get(id.split('/')[0]);
    const rule = index === undefined ? undefined : SarifRule.safeParse(rules[index]);
    return rule?.success ? rule.data : undefined;
  }

  private idsOf(component: SarifToolComponent): Map<string, number> {
    let ids = this.byId.get(component);
    if (ids === undefined) {
      ids = new Map();
      const rules = component.rules ?? [];
      for (let i = 0; i < Math.min(rules.length, MAX_INDEXED_RULES); i++) {
        const id = (rules[i] as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && !ids.has(id)) ids.set(id, i);
      }
      this.byId.set(component, ids);
    }
    return ids;
  }
}
