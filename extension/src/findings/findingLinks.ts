// A reference link inside a finding follows the code as the finding does: once lines were typed
// above it, its `src/a.ts:42` opens where those lines are now, not the line 42 the review wrote.
// Plain TypeScript (no `vscode`).

import * as path from 'path';
import { formatReference, parseLinkTarget } from '../../../shared/links';

/** What a link needs of the finding it is in. */
export interface FollowedFinding {
  /** The finding's reference as the review wrote it. */
  readonly reference: string;
  /** Its lines as the review wrote them, and where that code is now. */
  readonly writtenLine: number;
  readonly writtenEndLine: number;
  readonly line: number;
  readonly endLine: number;
  /** The code is gone, or changed past recognition. */
  readonly stale: boolean;
}

/**
 * Where a link in the finding should open. A link to the finding's own lines opens the finding's
 * current range; another line of the same file moves by as much as the finding moved; a link to
 * another file, or one with no line, opens as written. `codeChanged`: the link points into the
 * finding's file, whose code changed past recognition, so it opens as written and the user is told.
 */
export function followFindingLink(target: string, finding: FollowedFinding): { target: string; codeChanged: boolean } {
  const link = parseLinkTarget(target);
  const own = parseLinkTarget(finding.reference);
  if (
    link?.kind !== 'file' ||
    own?.kind !== 'file' ||
    link.line === undefined ||
    samePath(link.path, own.path) === false
  )
    return { target, codeChanged: false };
  if (finding.stale) return { target, codeChanged: true };
  const end = link.endLine ?? link.line;
  if (link.line >= finding.writtenLine && end <= finding.writtenEndLine) {
    return {
      target: formatReference({ kind: 'file', path: link.path, line: finding.line, endLine: finding.endLine }),
      codeChanged: false,
    };
  }
  const moved = finding.line - finding.writtenLine;
  const shifted = {
    ...link,
    line: Math.max(1, link.line + moved),
    ...(link.endLine !== undefined ? { endLine: Math.max(1, link.endLine + moved) } : {}),
  };
  return { target: formatReference(shifted), codeChanged: false };
}

/** The same file, however the review spelled it (`./src/a.ts`, `src\\a.ts`). */
function samePath(a: string, b: string): boolean {
  const normal = (p: string) => path.posix.normalize(p.replace(/\\/g, '/'));
  return normal(a) === normal(b);
}
