// The runs of an imported log, written back: one per tool of the log (shared/protocol/importedLog.ts),
// with its name, version and the rules its results name (help links and all), and each result with
// the tool's rule id, level, kind, message and its own fingerprints unchanged. A result that became a
// finding is where its code is now, with Redline's answers added in its property bag; one that is no
// finding here (no file, or one this workspace does not have) is where the log put it, or without a
// physical location, as SARIF allows.

import type * as Sarif from 'sarif';
import type { ImportedResult, ImportedRule, ImportedTool } from '../protocol';
import type { ExportedFinding, ExportedReview, UnplacedResult } from './exportedReview';
import { findingMessage } from './findingMessage';
import { RESULT_PROPERTY, RUN_PROPERTY } from './sarifKeys';
import { escapeBraces } from './sarifMessages';
import {
  answerProperties,
  artifactLocationOf,
  MAX_SARIF_RESULTS,
  omittedNotice,
  regionOf,
  SOURCE_ROOT_ID,
  suppressionsOf,
} from './sarifResultParts';

type Entry = { readonly finding: ExportedFinding; readonly sarif: ImportedResult } | UnplacedResult;

export function toolRuns(
  review: ExportedReview,
  { root }: { readonly root: string },
): { runs: Sarif.Run[]; omitted: number; withoutFile: number } {
  const tools = review.importedLog?.tools ?? [];
  const byTool = tools.map((): Entry[] => []);
  for (const finding of review.findings)
    if (finding.sarif !== undefined && byTool[finding.sarif.tool])
      byTool[finding.sarif.tool].push({ finding, sarif: finding.sarif });
  for (const unplaced of review.unplaced ?? []) byTool[unplaced.sarif.tool]?.push(unplaced);
  const runs: Sarif.Run[] = [];
  let omitted = 0;
  let withoutFile = 0;
  byTool.forEach((entries, index) => {
    if (entries.length === 0) return;
    // In the order the log had them.
    const ordered = [...entries].sort((a, b) => a.sarif.markdownLine - b.sarif.markdownLine);
    const kept = ordered.slice(0, MAX_SARIF_RESULTS);
    omitted += ordered.length - kept.length;
    withoutFile += kept.filter((entry) => !('finding' in entry)).length;
    const tool = tools[index];
    const run: Sarif.Run = {
      tool: { driver: driverOf(tool) },
      originalUriBaseIds: { ...(tool.baseIds ?? {}), [SOURCE_ROOT_ID]: { uri: root } },
      results: kept.map((entry) =>
        'finding' in entry ? placedResult(entry.finding, entry.sarif, tool) : unplacedResult(entry, tool),
      ),
      properties: {
        [RUN_PROPERTY.revision]: review.revision,
        [RUN_PROPERTY.importedFrom]: review.importedLog?.name ?? '',
      },
    };
    if (ordered.length > kept.length) run.invocations = [omittedNotice(ordered.length - kept.length, ordered.length)];
    runs.push(run);
  });
  return { runs, omitted, withoutFile };
}

function driverOf(tool: ImportedTool): Sarif.ToolComponent {
  return {
    name: tool.name,
    ...(tool.version !== undefined ? { version: tool.version } : {}),
    ...(tool.semanticVersion !== undefined ? { semanticVersion: tool.semanticVersion } : {}),
    ...(tool.informationUri !== undefined ? { informationUri: tool.informationUri } : {}),
    ...(tool.organization !== undefined ? { organization: tool.organization } : {}),
    ...(tool.rules.length > 0 ? { rules: tool.rules.map(ruleOf) } : {}),
  };
}

function ruleOf(rule: ImportedRule): Sarif.ReportingDescriptor {
  const help = rule.help?.text ?? rule.help?.markdown;
  return {
    id: rule.id,
    ...(rule.name !== undefined ? { name: rule.name } : {}),
    ...(rule.shortDescription !== undefined ? { shortDescription: { text: rule.shortDescription } } : {}),
    ...(rule.fullDescription !== undefined ? { fullDescription: { text: rule.fullDescription } } : {}),
    ...(rule.helpUri !== undefined ? { helpUri: rule.helpUri } : {}),
    ...(help !== undefined
      ? { help: { text: help, ...(rule.help?.markdown !== undefined ? { markdown: rule.help.markdown } : {}) } }
      : {}),
    ...(rule.level !== undefined ? { defaultConfiguration: { level: rule.level } } : {}),
    ...(rule.tags !== undefined ? { properties: { tags: rule.tags } } : {}),
  };
}

/** What the tool said of the result, as it said it: rule, level, kind, message, logical places, fingerprints. */
function asTheToolWroteIt(sarif: ImportedResult, tool: ImportedTool, fallback: string): Sarif.Result {
  const text = sarif.message?.text ?? sarif.message?.markdown ?? fallback;
  return {
    ...(sarif.ruleId !== undefined ? { ruleId: sarif.ruleId } : {}),
    ...(sarif.rule !== undefined && sarif.rule < tool.rules.length ? { ruleIndex: sarif.rule } : {}),
    ...(sarif.level !== undefined ? { level: sarif.level } : {}),
    ...(sarif.kind !== undefined ? { kind: sarif.kind } : {}),
    message: {
      text: escapeBraces(text),
      ...(sarif.message?.markdown !== undefined ? { markdown: escapeBraces(sarif.message.markdown) } : {}),
    },
    ...(sarif.partialFingerprints !== undefined ? { partialFingerprints: sarif.partialFingerprints } : {}),
    ...(sarif.fingerprints !== undefined ? { fingerprints: sarif.fingerprints } : {}),
  };
}

/** A result that became a finding: where its code is now, with the answers given in the window. */
function placedResult(finding: ExportedFinding, sarif: ImportedResult, tool: ImportedTool): Sarif.Result {
  const region = regionOf(finding);
  const result: Sarif.Result = {
    ...asTheToolWroteIt(sarif, tool, findingMessage(finding.markdown)),
    locations: [
      {
        physicalLocation: { artifactLocation: artifactLocationOf(finding.file), ...(region ? { region } : {}) },
        ...(sarif.logicalLocations !== undefined ? { logicalLocations: sarif.logicalLocations } : {}),
      },
    ],
  };
  result.properties = {
    [RESULT_PROPERTY.id]: finding.id,
    [RESULT_PROPERTY.fingerprint]: finding.fingerprint,
    ...answerProperties(finding),
  };
  const suppressions = suppressionsOf(finding);
  if (suppressions) result.suppressions = suppressions;
  return result;
}

/** A result that is no finding here: where the log put it, or with its logical places only. */
function unplacedResult({ sarif, message }: UnplacedResult, tool: ImportedTool): Sarif.Result {
  const location = sarif.location;
  const physical: Sarif.PhysicalLocation | undefined = location
    ? {
        artifactLocation: {
          uri: location.uri,
          ...(location.uriBaseId !== undefined ? { uriBaseId: location.uriBaseId } : {}),
        },
        ...(location.startLine !== undefined
          ? {
              region: {
                startLine: location.startLine,
                endLine: Math.max(location.startLine, location.endLine ?? location.startLine),
              },
            }
          : {}),
      }
    : undefined;
  const locations: Sarif.Location[] =
    physical || sarif.logicalLocations
      ? [
          {
            ...(physical ? { physicalLocation: physical } : {}),
            ...(sarif.logicalLocations !== undefined ? { logicalLocations: sarif.logicalLocations } : {}),
          },
        ]
      : [];
  const answers = { state: sarif.state, stale: false, replies: sarif.replies };
  const result: Sarif.Result = {
    ...asTheToolWroteIt(sarif, tool, message),
    locations,
    properties: answerProperties(answers),
  };
  const suppressions = suppressionsOf(answers);
  if (suppressions) result.suppressions = suppressions;
  return result;
}
