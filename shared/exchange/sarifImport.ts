// Any SARIF 2.1.0 log as a review: a markdown list item per result, in the shape Redline's renderer
// takes for a finding (a severity label, then the result's `file:line-end`), grouped by run and by
// rule, with the state and replies of each finding beside it for the window to restore, and what
// the log was (its tools, rules, fingerprints: sarifOrigins.ts) for the export to give back.
// The log is untrusted: it is read piece by piece within a budget (sarifLogReader.ts), cut to what a
// review can list, and refused, with the reason and what to do, when the review it makes is over
// budget. Its paths are found in the workspace by pathMapping.ts's rules, and each item says how.

import { utf8Bytes } from '../byteSize';
import type { FindingState } from '../findingTerms';
import { oneLine, visibleControls } from '../plainText';
import {
  MAX_FINDINGS,
  MAX_IMPORTED_RUNS,
  MAX_REVIEW_BYTES,
  PLACE_HOWS,
  type ImportedLog,
  type PlaceHow,
} from '../protocol';
import { budgetRefusal, formatCount, SPLIT_ADVICE } from '../reviewBudget';
import { findingFingerprint, type ExportedReply } from './exportedReview';
import { ImportedReviewWriter } from './importedReviewWriter';
import { toolLabel } from './importedLogText';
import { PathMapper, type MappedPath, type WorkspaceView } from './pathMapping';
import { howOf, placeNote, placesSummary } from './placeNotes';
import { FINGERPRINT_KEY } from './sarifKeys';
import { idOf, labelOf, repliesOf, stateOf } from './sarifAnswers';
import { SarifImportError } from './sarifImportError';
import { FILTER_ADVICE, readLog, type ReadLog, type ReadResult } from './sarifLogReader';
import { filledMessage, messageMarkdown } from './sarifMessages';
import { keptLog, type KeptResult } from './sarifOrigins';
import { logicalNameOf } from './sarifPlaces';
import { WorkspaceFiles, type WorkspaceFilesOptions } from './workspaceFiles';

export interface ImportedFinding {
  /** Redline's own, when the log is Redline's export; else made from the file and the title. */
  readonly fingerprint: string;
  /** The finding's id in the review that was exported, when the log is Redline's. */
  readonly id?: string;
  /** As the review writes it: relative to the folder the import started from, or absolute. */
  readonly file: string;
  /** 1 for a result about the whole file. */
  readonly line: number;
  readonly endLine: number;
  /** The result is about the whole file (no region, or line 0). */
  readonly fileLevel: boolean;
  readonly state: FindingState;
  readonly replies: ExportedReply[];
  /** 1-based line of its block in `markdown`. */
  readonly markdownLine: number;
  /** Its result in `log.results`. */
  readonly result: number;
}

/** What the import found, for the command's message: how places were found, and a few that were not. */
export interface ImportSummary {
  /** Results listed in the review, findings or not. */
  readonly listed: number;
  readonly places: Readonly<Record<PlaceHow, number>>;
  /** Paths of the first results whose file was not found, as the log names them. */
  readonly notFound: readonly string[];
  /** The workspace had more files than were listed to find paths by their ends. */
  readonly listingCut: boolean;
}

export interface ImportedReview {
  readonly title: string;
  readonly markdown: string;
  readonly findings: ImportedFinding[];
  readonly log: ImportedLog;
  readonly summary: ImportSummary;
}

export { SarifImportError };
export { MAX_IMPORTED_RUNS };

/** A log larger than this is refused before it is parsed: four times the largest review it could make. */
export const DEFAULT_MAX_SARIF_BYTES = 4 * MAX_REVIEW_BYTES;

export interface ImportOptions {
  readonly maxBytes?: number;
  /** The log's file name, for where its replies and states came from. */
  readonly name?: string;
}

/** The log as a review, its paths as it gives them (no workspace is looked at). */
export function fromSarif(text: string, options: ImportOptions = {}): ImportedReview {
  return guarded(() => {
    const read = readLog(text, options.maxBytes ?? DEFAULT_MAX_SARIF_BYTES);
    return writeReview(read, { mapper: new PathMapper(AS_WRITTEN), name: options.name, consulted: false });
  });
}

/** The log as a review, each path found in the workspace (pathMapping.ts), off any thread that matters. */
export async function importSarif(
  text: string,
  options: ImportOptions & { readonly workspace: WorkspaceFilesOptions },
): Promise<ImportedReview> {
  try {
    const read = readLog(text, options.maxBytes ?? DEFAULT_MAX_SARIF_BYTES);
    const artifacts = read.results.flatMap((result) => result.location?.artifact ?? []);
    const files = await WorkspaceFiles.read(options.workspace, artifacts);
    const mapper = new PathMapper(files, options.workspace.located ?? []);
    mapper.mapAll(artifacts);
    return writeReview(read, { mapper, name: options.name, consulted: true, listingCut: files.listingCut });
  } catch (error) {
    return guarded(() => {
      throw error;
    });
  }
}

/** Whatever a log can do to the code below, the caller gets a SarifImportError it can show. */
function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof SarifImportError) throw error;
    throw new SarifImportError(
      `The SARIF log could not be read: ${error instanceof Error ? error.message : String(error)}. Check that it is a SARIF 2.1.0 log.`,
    );
  }
}

/** Paths as the log gives them: every one "found" where it says. */
const AS_WRITTEN: WorkspaceView = {
  fileAt: (artifact) => artifact.path,
  fileAtLocal: (file) => file,
  endingWith: () => [],
};

interface WriteContext {
  readonly mapper: PathMapper;
  readonly name: string | undefined;
  /** Whether the workspace was looked at: a path not found there is then written as words, with why. */
  readonly consulted: boolean;
  readonly listingCut?: boolean;
}

function writeReview(read: ReadLog, context: WriteContext): ImportedReview {
  const title = titleOf(read);
  const writer = new ImportedReviewWriter(title, MAX_REVIEW_BYTES);
  const findings: ImportedFinding[] = [];
  const kept: KeptResult[] = [];
  const places = Object.fromEntries(PLACE_HOWS.map((how) => [how, 0])) as Record<PlaceHow, number>;
  const notFound: string[] = [];
  read.runs.forEach((run, runIndex) => {
    if (!read.onlyRedline) {
      const version = run.run.tool.driver.semanticVersion ?? run.run.tool.driver.version;
      writer.heading(2, version === undefined ? run.run.tool.driver.name : `${run.run.tool.driver.name} ${version}`);
    }
    for (const [ruleId, group] of groupsOf(read, runIndex)) {
      const rule = group[0].rule.rule;
      if (!run.fromRedline)
        writer.heading(3, ruleId ?? 'Results without a rule', {
          description: rule?.shortDescription?.text,
          helpUri: rule?.helpUri,
        });
      for (const result of group) {
        const written = writeResult(result, { writer, context, fromRedline: run.fromRedline, index: kept.length });
        places[written.kept.place]++;
        if ((written.kept.place === 'not-found' || written.kept.place === 'ambiguous') && notFound.length < 5)
          notFound.push(result.location?.artifact?.path ?? '');
        kept.push(written.kept);
        if (written.finding) findings.push(written.finding);
      }
    }
  });
  writer.notes([
    read.cutWhenWritten > 0
      ? `${count(read.cutWhenWritten, 'finding was', 'findings were')} already left out when Redline wrote the log (a run holds at most 25,000 results).`
      : undefined,
    read.counts.omitted > 0
      ? `${count(read.counts.omitted, 'more result was', 'more results were')} left out: a review lists at most ${formatCount(MAX_FINDINGS)}.`
      : undefined,
    read.counts.notRead > 0
      ? `${count(read.counts.notRead, 'more result was', 'more results were')} not read: Redline stops reading a log after examining ${formatCount(200_000)} of its values. ${FILTER_ADVICE}`
      : undefined,
    read.counts.unreadable > 0
      ? `${count(read.counts.unreadable, 'result was', 'results were')} left out because ${read.counts.unreadable === 1 ? 'it is not a valid SARIF result' : 'they are not valid SARIF results'}.`
      : undefined,
    read.skippedRuns > 0
      ? `${count(read.skippedRuns, 'more run was', 'more runs were')} left out: Redline reads at most ${MAX_IMPORTED_RUNS}.`
      : undefined,
    read.empty ? 'The log has no results.' : undefined,
    context.consulted ? placesSummary(places, context.listingCut ?? false) : undefined,
  ]);
  const markdown = writer.markdown();
  const refusal = budgetRefusal(markdown);
  if (refusal !== undefined) throw new SarifImportError(`${refusal.replace(SPLIT_ADVICE, '').trim()} ${FILTER_ADVICE}`);
  const sent = utf8Bytes(markdown) + findings.reduce((sum, f) => sum + utf8Bytes(f.file) + repliesBytes(f.replies), 0);
  // Room for the log's record in what one import may send; its keys and numbers take the rest of the margin.
  const log = keptLog({
    name: oneLine(context.name ?? 'SARIF log', 255),
    runs: read.runs,
    results: kept,
    budgetBytes: MAX_REVIEW_BYTES - sent - 512 * 1024,
  });
  return {
    title,
    markdown,
    findings,
    log,
    summary: { listed: kept.length, places, notFound, listingCut: context.listingCut ?? false },
  };
}

/** A run's results under their rule, in the order the rules first appear; Redline's own in the review's order. */
function groupsOf(read: ReadLog, runIndex: number): Map<string | undefined, ReadResult[]> {
  const fromRedline = read.runs[runIndex].fromRedline;
  const groups = new Map<string | undefined, ReadResult[]>();
  for (const result of read.results) {
    if (result.run !== runIndex) continue;
    const key = fromRedline ? undefined : (result.result.ruleId ?? result.result.rule?.id ?? result.rule.rule?.id);
    const group = groups.get(key) ?? [];
    group.push(result);
    groups.set(key, group);
  }
  return groups;
}

/** The result as an item; as a finding when it has a file the renderer can reference. */
function writeResult(
  read: ReadResult,
  {
    writer,
    context,
    fromRedline,
    index,
  }: { writer: ImportedReviewWriter; context: WriteContext; fromRedline: boolean; index: number },
): { kept: KeptResult; finding?: ImportedFinding } {
  const { result, location } = read;
  const rule = read.rule.rule;
  const message = filledMessage(result.message, rule, read.rule.component);
  const artifact = location?.artifact;
  const mapped: MappedPath | undefined = artifact ? context.mapper.placeOf(artifact) : undefined;
  const found = mapped?.found ? mapped : undefined;
  const place = artifact
    ? {
        file: found ? found.file : artifact.path,
        line: location?.startLine,
        endLine: location?.endLine,
        notFound: found === undefined && context.consulted,
      }
    : undefined;
  const item = writer.item({
    label: labelOf(result, rule, fromRedline),
    place,
    message: messageMarkdown(message),
    fromRedline,
    elsewhere: artifact === undefined ? elsewhereOf(location) : undefined,
    placeNote: artifact && mapped && context.consulted ? placeNote(artifact.path, mapped) : undefined,
  });
  const state = stateOf(result);
  const replies = repliesOf(result);
  const how: PlaceHow = mapped ? howOf(mapped, location?.root) : 'no-file';
  const isFinding = found !== undefined && place !== undefined && item.title !== undefined;
  const kept: KeptResult = {
    read,
    message,
    state,
    replies: isFinding ? [] : replies,
    place: how,
    markdownLine: item.line,
  };
  if (!isFinding) return { kept };
  const written = result.partialFingerprints?.[FINGERPRINT_KEY];
  return {
    kept,
    finding: {
      fingerprint:
        fromRedline && written !== undefined && /^[0-9a-f]{32}$/.test(written)
          ? written
          : findingFingerprint(place.file, item.title!),
      id: fromRedline ? idOf(result) : undefined,
      file: place.file,
      line: place.line ?? 1,
      endLine: place.endLine ?? place.line ?? 1,
      fileLevel: place.line === undefined,
      state,
      replies,
      markdownLine: item.line,
      result: index,
    },
  };
}

/** Where a result is when it names no file here: its logical place, or its URI and why it is no file ("a control character in its path"). */
function elsewhereOf(location: ReadResult['location']): string | undefined {
  const logical = logicalNameOf(location);
  if (logical !== undefined) return `in ${logical}`;
  if (location?.uri === undefined || location.noFile === undefined) return undefined;
  return `no file here, ${location.noFile}: ${visibleControls(location.uri)}`;
}

function titleOf(read: ReadLog): string {
  const written = read.onlyRedline ? read.runs[0].run.properties?.['redline.title'] : undefined;
  if (typeof written === 'string' && written.trim() !== '') return oneLine(written, 200);
  const tools = [...new Set(read.runs.map((run) => toolLabel({ name: run.run.tool.driver.name })))];
  return tools.length === 0
    ? 'SARIF log'
    : `${tools.slice(0, 3).join(', ')}${tools.length > 3 ? ' and others' : ''}: SARIF results`;
}

const repliesBytes = (replies: readonly ExportedReply[]): number =>
  replies.reduce((sum, reply) => sum + utf8Bytes(reply.text), 0);
const count = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;
