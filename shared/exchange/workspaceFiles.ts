// The workspace's files, as far as mapping a SARIF log's paths needs them (pathMapping.ts): each
// path the log names is looked up where it says (under the folder the import starts from, then each
// workspace folder); only when one is not found are the folders listed, once, to find files by the
// end of their path. The listing is bounded (MAX_LISTED_FILES, breadth first, without `.git` and
// `node_modules`, never through a link), and looks only inside the workspace's folders. Runs where
// the import runs: the import worker, or the command line's process.

import { promises as fs } from 'fs';
import * as path from 'path';
import { isWithin, refusedPathReason } from '../pathSafety';
import { realpathOrAsync } from '../realpath';
import type { PathPrefix, WorkspaceView } from './pathMapping';
import type { ArtifactPath } from './sarifPlaces';

/** Files listed at most; a larger workspace is matched against the first ones found, and the review says so. */
export const MAX_LISTED_FILES = 100_000;
/** Folders read at most while listing. */
const MAX_LISTED_FOLDERS = 20_000;
/** Folders never listed: a repository's own records, and installed packages. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
/** Lookups of the paths a log names, at once. */
const PARALLEL_LOOKUPS = 16;

interface Listed {
  readonly root: string;
  /** The path's segments under its root. */
  readonly segments: readonly string[];
}

export interface WorkspaceFilesOptions {
  /** The workspace's folders. */
  readonly roots: readonly string[];
  /** Where the log's relative paths start, and what the review's paths are relative to; the first root when absent. */
  readonly cwd?: string;
  /** Prefixes the user chose for earlier logs: the files they lead to are looked up too. */
  readonly located?: readonly PathPrefix[];
  readonly maxFiles?: number;
}

export class WorkspaceFiles implements WorkspaceView {
  /** Real paths of files known to exist in the workspace. */
  private readonly known = new Set<string>();
  private readonly byName = new Map<string, Listed[]>();
  private readonly byLowerName = new Map<string, Listed[]>();
  /** Set once the folders were listed and more files were there than MAX_LISTED_FILES. */
  listingCut = false;
  listed = 0;

  private constructor(
    private readonly roots: readonly string[],
    private readonly cwd: string,
  ) {}

  /** The workspace as far as `artifacts` need it: their own places looked up, the folders listed if one is missing. */
  static async read(options: WorkspaceFilesOptions, artifacts: readonly ArtifactPath[]): Promise<WorkspaceFiles> {
    const roots = await Promise.all(options.roots.map((root) => realpathOrAsync(path.resolve(root))));
    const cwd = options.cwd !== undefined ? await realpathOrAsync(path.resolve(options.cwd)) : roots[0];
    const files = new WorkspaceFiles(roots, cwd ?? '');
    const wanted = new Set<string>();
    let missing = false;
    for (const artifact of artifacts) {
      const places = files.placesOf(artifact);
      for (const prefix of options.located ?? [])
        if (artifact.path.startsWith(prefix.from)) places.push(prefix.to + artifact.path.slice(prefix.from.length));
      for (const place of places) wanted.add(place);
      if (places.length === 0) missing = true;
    }
    await files.lookUp([...wanted]);
    missing ||= artifacts.some((artifact) => files.fileAt(artifact) === undefined);
    if (missing) await files.list(options.maxFiles ?? MAX_LISTED_FILES);
    return files;
  }

  fileAt(artifact: ArtifactPath): string | undefined {
    for (const place of this.placesOf(artifact)) if (this.known.has(place)) return this.reviewPath(place);
    return undefined;
  }

  fileAtLocal(file: string): string | undefined {
    const resolved = path.resolve(file);
    return this.known.has(resolved) && this.inWorkspace(resolved) ? this.reviewPath(resolved) : undefined;
  }

  endingWith(segments: readonly string[], { ignoreCase, limit }: { ignoreCase: boolean; limit: number }): string[] {
    const name = segments.at(-1);
    if (name === undefined) return [];
    const candidates = ignoreCase ? this.byLowerName.get(name.toLowerCase()) : this.byName.get(name);
    const found: string[] = [];
    for (const candidate of candidates ?? []) {
      if (found.length >= limit) break;
      if (endsWith(candidate.segments, segments, ignoreCase))
        found.push(path.join(candidate.root, ...candidate.segments));
    }
    return found;
  }

  /** Where a path from the log may be, inside the workspace only: the import's folder first, then each folder. */
  private placesOf(artifact: ArtifactPath): string[] {
    if (refusedPathReason(artifact.path) !== undefined) return [];
    if (artifact.kind === 'absolute') {
      const resolved = path.resolve(artifact.path);
      return path.isAbsolute(artifact.path) && this.inWorkspace(resolved) ? [resolved] : [];
    }
    const places = [this.cwd, ...this.roots]
      .filter((base) => base !== '')
      .map((base) => path.resolve(base, artifact.path))
      .filter((place) => this.inWorkspace(place));
    return [...new Set(places)];
  }

  private inWorkspace(file: string): boolean {
    return this.roots.some((root) => isWithin(root, file, path));
  }

  /** Relative to the import's folder when under it (forward slashes), else absolute. */
  private reviewPath(file: string): string {
    if (this.cwd !== '' && isWithin(this.cwd, file, path))
      return path.relative(this.cwd, file).split(path.sep).join('/');
    return file;
  }

  /** Which of `places` are regular files (found through links, as the renderer finds them). */
  private async lookUp(places: readonly string[]): Promise<void> {
    for (let i = 0; i < places.length; i += PARALLEL_LOOKUPS) {
      await Promise.all(
        places.slice(i, i + PARALLEL_LOOKUPS).map(async (place) => {
          try {
            if ((await fs.stat(place)).isFile()) this.known.add(place);
          } catch {
            // Not there: another rule may find it.
          }
        }),
      );
    }
  }

  /** Lists the folders breadth first, so that a cut keeps the files nearest their tops. */
  private async list(maxFiles: number): Promise<void> {
    let folders = 0;
    const queue: Array<{ root: string; segments: string[] }> = this.roots.map((root) => ({ root, segments: [] }));
    while (queue.length > 0) {
      if (this.listed >= maxFiles || folders >= MAX_LISTED_FOLDERS) {
        this.listingCut = true;
        return;
      }
      const { root, segments } = queue.shift()!;
      folders++;
      let entries;
      try {
        entries = await fs.readdir(path.join(root, ...segments), { withFileTypes: true });
      } catch {
        continue; // unreadable: its files are not found by their ends
      }
      for (const entry of entries) {
        if (entry.isDirectory()) {
          if (!SKIPPED_FOLDERS.has(entry.name)) queue.push({ root, segments: [...segments, entry.name] });
        } else if (entry.isFile()) {
          if (this.listed >= maxFiles) {
            this.listingCut = true;
            return;
          }
          this.add({ root, segments: [...segments, entry.name] });
        }
      }
    }
  }

  private add(file: Listed): void {
    this.listed++;
    this.known.add(path.join(file.root, ...file.segments));
    const name = file.segments.at(-1)!;
    push(this.byName, name, file);
    push(this.byLowerName, name.toLowerCase(), file);
  }
}

function push(map: Map<string, Listed[]>, key: string, file: Listed): void {
  const list = map.get(key);
  if (list) list.push(file);
  else map.set(key, [file]);
}

function endsWith(segments: readonly string[], tail: readonly string[], ignoreCase: boolean): boolean {
  if (tail.length > segments.length) return false;
  const offset = segments.length - tail.length;
  for (let i = 0; i < tail.length; i++) {
    const a = segments[offset + i];
    const b = tail[i];
    if (ignoreCase ? a.toLowerCase() !== b.toLowerCase() : a !== b) return false;
  }
  return true;
}
