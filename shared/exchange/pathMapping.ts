// Where a path from a SARIF log is in this workspace. A log written on another machine names files
// where they were there (`file:///Users/ci/work/app/src/a.ts`, `C:\build\src\a.cs`); the workspace
// is another checkout of the same code. The rules, in order (the first that finds a file wins):
//   1. the path as the log gives it (relative ones through the log's own roots, sarifPlaces.ts),
//      when it names a file in the workspace;
//   2. a prefix the user chose by locating one file of an earlier log (as Microsoft's SARIF Viewer
//      remembers one): the log's prefix is replaced by the local one;
//   3. the longest end of the path that names exactly one file in the workspace (`src/a.ts` when
//      only one file's path ends so); two or more are ambiguous, and shorter ends are not tried;
//   4. the prefix rule 3 found for another result of the same log (`/Users/ci/work/app/` → the
//      workspace), for a path whose own end is ambiguous.
// Each place says which rule found it, so the review can say how. Pure: the workspace's files are
// given (workspaceFiles.ts reads them).

import type { ArtifactPath } from './sarifPlaces';

/** A prefix of the log's paths and the local folder it stands for: both end with a slash. */
export interface PathPrefix {
  /** As the log writes its paths, forward slashes: `/Users/ci/work/app/`, `C:/build/`. */
  readonly from: string;
  /** An absolute local folder. */
  readonly to: string;
}

/** What the mapping needs to know of the workspace. */
export interface WorkspaceView {
  /** The path the review should write for `artifact` when it names a file in the workspace as it is. */
  fileAt(artifact: ArtifactPath): string | undefined;
  /** The path the review should write for the absolute local `file`, when it is a file in the workspace. */
  fileAtLocal(file: string): string | undefined;
  /**
   * Files (absolute local paths) whose path in their workspace folder ends with `segments`, compared
   * exactly or, when `ignoreCase`, without case. At most `limit` are returned.
   */
  endingWith(segments: readonly string[], options: { ignoreCase: boolean; limit: number }): readonly string[];
}

export type PlaceHow = 'as-written' | 'located' | 'suffix' | 'same-prefix';

export type MappedPath =
  | {
      readonly found: true;
      /** As the review writes it: relative to the folder the import started from, or absolute. */
      readonly file: string;
      readonly how: PlaceHow;
      /** For `suffix`, the end that matched; for `located` and `same-prefix`, the prefix used. */
      readonly suffix?: string;
      readonly prefix?: PathPrefix;
    }
  | {
      readonly found: false;
      /** `none`: no file's path ends as this one does; `ambiguous`: `count` files end in `suffix`. */
      readonly why: 'none' | 'ambiguous';
      readonly suffix?: string;
      readonly count?: number;
    };

/** Files compared for one path's end before it is called ambiguous. */
const MAX_CANDIDATES = 16;

export class PathMapper {
  /** Prefixes found by rule 3, for rule 4: most recent last. */
  private readonly learned: PathPrefix[] = [];
  private readonly done = new Map<string, MappedPath>();

  constructor(
    private readonly workspace: WorkspaceView,
    private readonly located: readonly PathPrefix[] = [],
  ) {}

  /**
   * Maps every path; rule 4 runs once rule 3 has seen them all, so that the order of results does
   * not decide which are found.
   */
  mapAll(artifacts: readonly ArtifactPath[]): void {
    for (const artifact of artifacts)
      if (!this.done.has(keyOf(artifact))) this.done.set(keyOf(artifact), this.first(artifact));
    for (const [key, mapped] of this.done) {
      if (mapped.found) continue;
      const again = this.withPrefixes(parseKey(key), this.learned, 'same-prefix');
      if (again) this.done.set(key, again);
    }
  }

  /** The place of a path given to mapAll (else mapped now, without rule 4). */
  placeOf(artifact: ArtifactPath): MappedPath {
    const key = keyOf(artifact);
    let mapped = this.done.get(key);
    if (mapped === undefined) this.done.set(key, (mapped = this.first(artifact)));
    return mapped;
  }

  private first(artifact: ArtifactPath): MappedPath {
    const asWritten = this.workspace.fileAt(artifact);
    if (asWritten !== undefined) return { found: true, file: asWritten, how: 'as-written' };
    return this.withPrefixes(artifact, this.located, 'located') ?? this.bySuffix(artifact);
  }

  private withPrefixes(
    artifact: ArtifactPath,
    prefixes: readonly PathPrefix[],
    how: 'located' | 'same-prefix',
  ): MappedPath | undefined {
    // The longest prefix first: it says the most about where the file is.
    const ordered = [...prefixes].sort((a, b) => b.from.length - a.from.length);
    for (const prefix of ordered) {
      if (!artifact.path.startsWith(prefix.from)) continue;
      const file = this.workspace.fileAtLocal(prefix.to + artifact.path.slice(prefix.from.length));
      if (file !== undefined) return { found: true, file, how, prefix };
    }
    return undefined;
  }

  private bySuffix(artifact: ArtifactPath): MappedPath {
    const segments = artifact.path.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.length === 0 || segments.includes('..')) return { found: false, why: 'none' };
    for (const ignoreCase of [false, true]) {
      for (let k = segments.length; k >= 1; k--) {
        const tail = segments.slice(-k);
        const matches = this.workspace.endingWith(tail, { ignoreCase, limit: MAX_CANDIDATES });
        if (matches.length === 0) continue;
        const suffix = tail.join('/');
        if (matches.length > 1) return { found: false, why: 'ambiguous', suffix, count: matches.length };
        const file = this.workspace.fileAtLocal(matches[0]);
        if (file === undefined) return { found: false, why: 'none' };
        this.learn(artifact.path, matches[0], k);
        return { found: true, file, how: 'suffix', suffix };
      }
    }
    return { found: false, why: 'none' };
  }

  /** The prefix a unique end implies: `/Users/ci/app/` + `src/a.ts` is `/home/me/app/` + `src/a.ts`. */
  private learn(path: string, local: string, segments: number): void {
    const from = dropSegments(path, segments);
    const to = dropSegments(local, segments);
    if (from === undefined || to === undefined || this.learned.some((known) => known.from === from)) return;
    this.learned.push({ from, to });
  }
}

/** `path` without its last `count` segments, ending with a slash; undefined when nothing is left. */
function dropSegments(path: string, count: number): string | undefined {
  let end = path.length;
  for (let i = 0; i < count; i++) {
    end = path.lastIndexOf('/', end - 1);
    if (end < 0) return undefined;
  }
  return path.slice(0, end + 1);
}

/**
 * The prefix that maps the log's `artifact` to the local file the user chose for it: both with
 * their common end taken off, as the SARIF Viewer computes it. Undefined when the file names
 * differ (the user picked another file) or nothing is left to map.
 */
export function prefixFromLocated(artifact: string, local: string): PathPrefix | undefined {
  const a = artifact.split('/');
  const b = local.replace(/\\/g, '/').split('/');
  if (a.at(-1) !== b.at(-1)) return undefined;
  let common = 0;
  while (common < a.length - 1 && common < b.length - 1 && a[a.length - 1 - common] === b[b.length - 1 - common])
    common++;
  const from = a.slice(0, a.length - common).join('/');
  const to = b.slice(0, b.length - common).join('/');
  if (from === '' || to === '') return undefined;
  return { from: `${from}/`, to: `${to}/` };
}

const keyOf = (artifact: ArtifactPath): string => `${artifact.kind === 'absolute' ? 'a' : 'r'}:${artifact.path}`;
const parseKey = (key: string): ArtifactPath => ({
  kind: key.startsWith('a:') ? 'absolute' : 'relative',
  path: key.slice(2),
});
