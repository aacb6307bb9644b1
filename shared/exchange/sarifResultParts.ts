// The parts every exported SARIF result is made of, whichever run it is in (Redline's, or an
// imported tool's: sarifToolRuns.ts): where its file is, its lines, the answers Redline adds, and a
// decided finding as a suppression.

import { isAbsolute } from 'path';
import { pathToFileURL } from 'url';
import type * as Sarif from 'sarif';
import type { ExportedFinding } from './exportedReview';
import { RESULT_PROPERTY } from './sarifKeys';

/** GitHub code scanning refuses a run with more results than this. */
export const MAX_SARIF_RESULTS = 25_000;
/** The uriBaseId every result's file is relative to; run.originalUriBaseIds says where it is. */
export const SOURCE_ROOT_ID = 'SRCROOT';

/** How long a suppression's justification quotes the last reply. */
const MAX_JUSTIFICATION_CHARS = 1000;

const STATE_JUSTIFICATION = {
  resolved: 'Marked resolved in Redline.',
  accepted: 'Accepted in Redline.',
  'wont-fix': "Marked won't fix in Redline.",
} as const;

/** The invocation that says what a run left out: GitHub's limit of results per run. */
export function omittedNotice(omitted: number, total: number): Sarif.Invocation {
  return {
    executionSuccessful: true,
    toolExecutionNotifications: [
      {
        level: 'warning',
        message: {
          text: `${omitted} of the review's ${total} findings were left out: a run holds at most ${MAX_SARIF_RESULTS} results.`,
        },
      },
    ],
  };
}

/** The finding's lines as SARIF counts them (from 1: a line the window could not place is the first); none for a whole file. */
export function regionOf(finding: Pick<ExportedFinding, 'line' | 'endLine' | 'fileLevel'>): Sarif.Region | undefined {
  if (finding.fileLevel) return undefined;
  const startLine = Math.max(1, finding.line);
  return { startLine, endLine: Math.max(startLine, finding.endLine) };
}

/** What Redline adds to any result: the answer, whether the code changed, and the replies (with where each came from). */
export function answerProperties(finding: Pick<ExportedFinding, 'state' | 'stale' | 'replies'>): Sarif.PropertyBag {
  return {
    [RESULT_PROPERTY.state]: finding.state,
    [RESULT_PROPERTY.stale]: finding.stale,
    [RESULT_PROPERTY.replies]: finding.replies.map(({ text, at, source, origin }) => ({
      text,
      at,
      ...(source !== undefined && source !== 'window' ? { source } : {}),
      ...(origin !== undefined ? { origin } : {}),
    })),
  };
}

/** A decided finding as an accepted suppression, quoting its last reply as the justification. */
export function suppressionsOf(finding: Pick<ExportedFinding, 'state' | 'replies'>): Sarif.Suppression[] | undefined {
  if (finding.state === 'open') return undefined;
  const last = finding.replies.at(-1)?.text;
  const quoted =
    last === undefined
      ? ''
      : ` ${last.length > MAX_JUSTIFICATION_CHARS ? `${last.slice(0, MAX_JUSTIFICATION_CHARS - 1)}…` : last}`;
  return [{ kind: 'external', status: 'accepted', justification: `${STATE_JUSTIFICATION[finding.state]}${quoted}` }];
}

/** A relative file as a URI reference under SRCROOT; a file outside the root (absolute) as a file: URI. */
export function artifactLocationOf(file: string): Sarif.ArtifactLocation {
  if (isAbsolute(file) || /^[A-Za-z]:[\\/]/.test(file)) return { uri: pathToFileURL(file).href };
  const uri = file
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return { uri, uriBaseId: SOURCE_ROOT_ID };
}

/** SARIF requires a base URI to end with a slash, or it names a file, not a folder. */
export function directoryUri(root: string): string {
  const href = pathToFileURL(root).href;
  return href.endsWith('/') ? href : `${href}/`;
}
