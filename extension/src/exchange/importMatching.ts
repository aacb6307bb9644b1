// Which finding shown is which finding of an imported log. A finding's id is a hash of its text,
// so the log's ids mean nothing once its markdown is rendered again; it is found by where its block
// starts in the markdown the import wrote, then by its fingerprint (file and title), then by its
// place in the code. Each finding shown is matched once, in the order of the log. Pure.

import type { ImportedFindingParams } from '../../../shared/protocol';

export interface ShownForMatch {
  readonly id: string;
  /** As the findings give it: absolute. */
  readonly file: string;
  readonly line: number;
  /** 1-based line of the markdown its block starts on, when known. */
  readonly reviewLine?: number;
  readonly fingerprint: string;
}

export interface ImportMatch {
  readonly imported: ImportedFindingParams;
  readonly shownId: string;
}

export function matchImported(
  imported: readonly ImportedFindingParams[],
  shown: readonly ShownForMatch[],
): ImportMatch[] {
  const used = new Set<string>();
  const matched = new Map<ImportedFindingParams, string>();
  const take = (finding: ImportedFindingParams, candidate: ShownForMatch | undefined): void => {
    if (!candidate || used.has(candidate.id)) return;
    used.add(candidate.id);
    matched.set(finding, candidate.id);
  };
  const byLine = new Map(shown.filter((s) => s.reviewLine !== undefined).map((s) => [s.reviewLine!, s]));
  for (const finding of imported) take(finding, byLine.get(finding.markdownLine));
  for (const finding of imported) {
    if (!matched.has(finding))
      take(
        finding,
        shown.find((s) => !used.has(s.id) && s.fingerprint === finding.fingerprint),
      );
  }
  for (const finding of imported) {
    if (!matched.has(finding))
      take(
        finding,
        shown.find((s) => !used.has(s.id) && s.line === finding.line && endsWithPath(s.file, finding.file)),
      );
  }
  return imported
    .filter((finding) => matched.has(finding))
    .map((finding) => ({ imported: finding, shownId: matched.get(finding)! }));
}

/** `file` ends with the relative path `tail`, at a folder boundary, whichever slashes either uses. */
function endsWithPath(file: string, tail: string): boolean {
  const a = file.replace(/\\/g, '/');
  const b = tail.replace(/\\/g, '/').replace(/^\.\//, '');
  return a === b || a.endsWith(`/${b}`);
}
