// A review as a SARIF 2.1.0 log, for code scanning and SARIF viewers: a run with Redline as the
// tool, a rule per kind of finding, a result per finding at its current lines, and the answers
// (state, replies) written so that the import (sarifImport.ts) gives them back. A review imported
// from another tool's log also gets a run per tool of that log (sarifToolRuns.ts): its results as
// the tool wrote them, with Redline's answers added, and those that are no finding here where the
// log put them; so nothing of the log is lost on the way out.

import type * as Sarif from 'sarif';
import type { ExportedFinding, ExportedReview } from './exportedReview';
import { FINDING_KINDS, KIND_DESCRIPTION, SARIF_LEVEL, kindOf, type FindingKind } from './findingKinds';
import { findingMessage } from './findingMessage';
import { FINGERPRINT_KEY, RESULT_PROPERTY, RUN_PROPERTY } from './sarifKeys';
import { escapeBraces } from './sarifMessages';
import {
  answerProperties,
  artifactLocationOf,
  directoryUri,
  MAX_SARIF_RESULTS,
  omittedNotice,
  regionOf,
  SOURCE_ROOT_ID,
  suppressionsOf,
} from './sarifResultParts';
import { toolRuns } from './sarifToolRuns';

export { FINGERPRINT_KEY, RESULT_PROPERTY, RUN_PROPERTY, MAX_SARIF_RESULTS, SOURCE_ROOT_ID };

export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const REDLINE_INFORMATION_URI = 'https://github.com/redline-dev/redline';

/** A rule's id: stable and distinct from its name (`Bug`), as SARIF asks of an id. */
export const ruleIdOf = (kind: FindingKind): string => `redline-${kind}`;

export interface SarifExport {
  readonly log: Sarif.Log;
  /** Findings left out to keep within GitHub's limit of results per run (each run says so too). */
  readonly omitted: number;
  /** Results of an imported log exported where the log put them: no file of the workspace holds them. */
  readonly withoutFile: number;
}

export function toSarif(review: ExportedReview): SarifExport {
  const tools = review.importedLog?.tools ?? [];
  const own = review.findings.filter(
    (finding) => finding.sarif === undefined || tools[finding.sarif.tool] === undefined,
  );
  const imported = toolRuns(review, { root: directoryUri(review.repositoryRoot) });
  const runs: Sarif.Run[] = [];
  let omitted = imported.omitted;
  // Redline's run when it has findings, or when there is nothing else (an empty export is still a log).
  if (own.length > 0 || imported.runs.length === 0) {
    const run = redlineRun(review, own);
    omitted += run.omitted;
    runs.push(run.run);
  }
  runs.push(...imported.runs);
  return { log: { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs }, omitted, withoutFile: imported.withoutFile };
}

function redlineRun(review: ExportedReview, findings: readonly ExportedFinding[]): { run: Sarif.Run; omitted: number } {
  const kept = findings.slice(0, MAX_SARIF_RESULTS);
  const omitted = findings.length - kept.length;
  const properties: Sarif.PropertyBag = { [RUN_PROPERTY.revision]: review.revision };
  if (review.title !== undefined) properties[RUN_PROPERTY.title] = review.title;
  if (review.assistant !== undefined) properties[RUN_PROPERTY.assistant] = review.assistant;
  if (omitted > 0) properties[RUN_PROPERTY.omittedResults] = omitted;
  const run: Sarif.Run = {
    tool: {
      driver: {
        name: 'Redline',
        version: review.toolVersion,
        informationUri: REDLINE_INFORMATION_URI,
        rules: FINDING_KINDS.map((kind) => ({
          id: ruleIdOf(kind),
          name: `${kind[0].toUpperCase()}${kind.slice(1)}`,
          shortDescription: { text: KIND_DESCRIPTION[kind] },
          defaultConfiguration: { level: SARIF_LEVEL[kind] },
        })),
      },
    },
    originalUriBaseIds: { [SOURCE_ROOT_ID]: { uri: directoryUri(review.repositoryRoot) } },
    results: kept.map(resultOf),
    properties,
  };
  if (omitted > 0) run.invocations = [omittedNotice(omitted, findings.length)];
  return { run, omitted };
}

function resultOf(finding: ExportedFinding): Sarif.Result {
  const kind = kindOf(finding.severity);
  const artifactLocation = artifactLocationOf(finding.file);
  const region = regionOf(finding);
  const result: Sarif.Result = {
    ruleId: ruleIdOf(kind),
    ruleIndex: FINDING_KINDS.indexOf(kind),
    level: SARIF_LEVEL[kind],
    message: { text: escapeBraces(findingMessage(finding.markdown)) },
    locations: [{ physicalLocation: { artifactLocation, ...(region ? { region } : {}) } }],
    partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
    properties: {
      [RESULT_PROPERTY.id]: finding.id,
      [RESULT_PROPERTY.severity]: kind,
      ...answerProperties(finding),
    },
  };
  // Praise is not a failure: SARIF gives such a result a kind, and then only the level `none`.
  if (kind === 'praise') result.kind = 'informational';
  const suppressions = suppressionsOf(finding);
  if (suppressions) result.suppressions = suppressions;
  if (finding.suggestions.length > 0 && region) {
    result.fixes = finding.suggestions.map((text) => ({
      description: { text: 'Suggested change' },
      artifactChanges: [{ artifactLocation, replacements: [{ deletedRegion: region, insertedContent: { text } }] }],
    }));
  }
  return result;
}
