// A review as a SARIF 2.1.0 log, for code scanning and SARIF viewers: one run with Redline as the
// tool, a rule per kind of finding, a result per finding at its current lines, and the user's
// answers (state, replies) written so that the import (sarifImport.ts) gives them back.

import { isAbsolute } from 'path';
import { pathToFileURL } from 'url';
import type * as Sarif from 'sarif';
import type { ExportedFinding, ExportedReview } from './exportedReview';
import { FINDING_KINDS, KIND_DESCRIPTION, SARIF_LEVEL, kindOf, type FindingKind } from './findingKinds';
import { findingMessage } from './findingMessage';
import { escapeBraces } from './sarifMessages';

export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** GitHub code scanning refuses a run with more results than this. */
export const MAX_SARIF_RESULTS = 25_000;
/** The uriBaseId every result's file is relative to; run.originalUriBaseIds says where it is. */
export const SOURCE_ROOT_ID = 'SRCROOT';
export const REDLINE_INFORMATION_URI = 'https://github.com/redline-dev/redline';
/** The partialFingerprints key: versioned, as SARIF asks, so that a change of recipe is a new key. */
export const FINGERPRINT_KEY = 'redlineFindingFingerprint/v1';

/** A rule's id: stable and distinct from its name (`Bug`), as SARIF asks of an id. */
export const ruleIdOf = (kind: FindingKind): string => `redline-${kind}`;

/** The property bag keys of a result, read back by the import. */
export const RESULT_PROPERTY = {
  id: 'redline.id',
  severity: 'redline.severity',
  state: 'redline.state',
  stale: 'redline.stale',
  replies: 'redline.replies',
} as const;

/** The property bag keys of the run. */
export const RUN_PROPERTY = {
  title: 'redline.title',
  assistant: 'redline.assistant',
  revision: 'redline.revision',
  omittedResults: 'redline.omittedResults',
} as const;

/** How long a suppression's justification quotes the user's last reply. */
const MAX_JUSTIFICATION_CHARS = 1000;

const STATE_JUSTIFICATION = {
  resolved: 'Marked resolved in Redline.',
  accepted: 'Accepted in Redline.',
  'wont-fix': "Marked won't fix in Redline.",
} as const;

/**
 * The log, and how many findings were left out to keep within GitHub's limit of results per run
 * (the run says so too, in a notification and a property).
 */
export function toSarif(review: ExportedReview): { log: Sarif.Log; omitted: number } {
  const kept = review.findings.slice(0, MAX_SARIF_RESULTS);
  const omitted = review.findings.length - kept.length;
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
  if (omitted > 0) {
    run.invocations = [
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: 'warning',
            message: {
              text: `${omitted} of the review's ${review.findings.length} findings were left out: a run holds at most ${MAX_SARIF_RESULTS} results.`,
            },
          },
        ],
      },
    ];
  }
  return { log: { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] }, omitted };
}

function resultOf(finding: ExportedFinding): Sarif.Result {
  const kind = kindOf(finding.severity);
  const artifactLocation = artifactLocationOf(finding.file);
  // SARIF's lines start at 1: a line the window could not place (0) is the file's first.
  const startLine = Math.max(1, finding.line);
  const region: Sarif.Region = { startLine, endLine: Math.max(startLine, finding.endLine) };
  const result: Sarif.Result = {
    ruleId: ruleIdOf(kind),
    ruleIndex: FINDING_KINDS.indexOf(kind),
    level: SARIF_LEVEL[kind],
    message: { text: escapeBraces(findingMessage(finding.markdown)) },
    locations: [{ physicalLocation: { artifactLocation, region } }],
    partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
    properties: {
      [RESULT_PROPERTY.id]: finding.id,
      [RESULT_PROPERTY.severity]: kind,
      [RESULT_PROPERTY.state]: finding.state,
      [RESULT_PROPERTY.stale]: finding.stale,
      [RESULT_PROPERTY.replies]: finding.replies.map(({ text, at }) => ({ text, at })),
    },
  };
  // Praise is not a failure: SARIF gives such a result a kind, and then only the level `none`.
  if (kind === 'praise') result.kind = 'informational';
  if (finding.state !== 'open') {
    const last = finding.replies.at(-1)?.text;
    const quoted =
      last === undefined
        ? ''
        : ` ${last.length > MAX_JUSTIFICATION_CHARS ? `${last.slice(0, MAX_JUSTIFICATION_CHARS - 1)}…` : last}`;
    result.suppressions = [
      { kind: 'external', status: 'accepted', justification: `${STATE_JUSTIFICATION[finding.state]}${quoted}` },
    ];
  }
  if (finding.suggestions.length > 0) {
    result.fixes = finding.suggestions.map((text) => ({
      description: { text: 'Suggested change' },
      artifactChanges: [{ artifactLocation, replacements: [{ deletedRegion: region, insertedContent: { text } }] }],
    }));
  }
  return result;
}

/** A relative file as a URI reference under SRCROOT; a file outside the root (absolute) as a file: URI. */
function artifactLocationOf(file: string): Sarif.ArtifactLocation {
  if (isAbsolute(file) || /^[A-Za-z]:[\\/]/.test(file)) return { uri: pathToFileURL(file).href };
  const uri = file
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return { uri, uriBaseId: SOURCE_ROOT_ID };
}

/** SARIF requires a base URI to end with a slash, or it names a file, not a folder. */
function directoryUri(root: string): string {
  const href = pathToFileURL(root).href;
  return href.endsWith('/') ? href : `${href}/`;
}
