// Where a SARIF result points, as the log says it: a path (relative, or absolute on the machine
// that wrote the log) and its lines. A relative URI stays relative: its uriBaseId names a root on
// that machine (run.originalUriBaseIds), and the reader's workspace is another checkout of the same
// code. An absolute file: URI under one of those roots, or under the folder the tool ran in
// (invocations[].workingDirectory), is made relative to it for the same reason. Where that path is
// in this workspace is pathMapping.ts's to find.

import { isRecord } from './sarifBounds';
import {
  SarifArtifact,
  SarifBaseId,
  type SarifArtifactLocation,
  type SarifLocation,
  type SarifLogicalLocation,
  type SarifRun,
} from './sarifShape';

/** A path from the log: relative to the sources' root, or absolute on the machine that wrote it. Forward slashes. */
export type ArtifactPath =
  { readonly kind: 'relative'; readonly path: string } | { readonly kind: 'absolute'; readonly path: string };

/** How the log's own roots made a path relative: which root, as the log names it. */
export interface LogRoot {
  readonly how: 'base-id' | 'working-directory';
  /** The base id (`SRCROOT`) or the working directory's URI. */
  readonly name: string;
}

export interface ResultLocation {
  /** The file, when the result names one that can be on this machine. */
  readonly artifact?: ArtifactPath;
  /** Set when one of the log's roots made the path relative. */
  readonly root?: LogRoot;
  /** Why a result with a URI names no file here ("a remote URI"). */
  readonly noFile?: string;
  /** The artifact location as the log wrote it, for the review's notes and the export. */
  readonly uri?: string;
  readonly uriBaseId?: string;
  /** Absent: the result is about the whole file (no region, or Semgrep's line 0). */
  readonly startLine?: number;
  readonly endLine?: number;
  readonly logicalLocations?: readonly SarifLogicalLocation[];
}

/** How deep uriBaseIds may refer to one another before the chain is taken for a loop. */
const MAX_BASE_DEPTH = 8;

/** Characters no path holds: a log that puts one in a URI (`%0A`) is refused a file, so no line of the review can be split. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The first location with a file, else the first with anything to say; undefined for none at all. */
export function locationOf(locations: readonly SarifLocation[], run: SarifRun): ResultLocation | undefined {
  let fallback: ResultLocation | undefined;
  for (const location of locations) {
    const logicalLocations = location.logicalLocations?.length ? location.logicalLocations : undefined;
    const physical = location.physicalLocation;
    if (physical?.artifactLocation === undefined) {
      fallback ??= logicalLocations ? { logicalLocations } : undefined;
      continue;
    }
    const written = writtenLocation(physical.artifactLocation, run);
    const startLine = physical.region?.startLine;
    const endLine = startLine === undefined ? undefined : Math.max(startLine, physical.region?.endLine ?? startLine);
    const found: ResultLocation = {
      ...fileOf(written, run),
      ...(written.uri !== undefined ? { uri: written.uri } : {}),
      ...(written.uriBaseId !== undefined ? { uriBaseId: written.uriBaseId } : {}),
      ...(startLine !== undefined ? { startLine, endLine } : {}),
      ...(logicalLocations ? { logicalLocations } : {}),
    };
    if (found.artifact) return found;
    fallback ??= found;
  }
  return fallback;
}

/** What a result names when it has no file: its logical locations ("com.example.Foo.bar"). */
export function logicalNameOf(location: ResultLocation | undefined): string | undefined {
  for (const logical of location?.logicalLocations ?? []) {
    const name = logical.fullyQualifiedName ?? logical.name;
    if (name !== undefined && name.trim() !== '') return name;
  }
  return undefined;
}

/** The artifact location itself, or the run's artifact it names by index. */
function writtenLocation(location: SarifArtifactLocation, run: SarifRun): SarifArtifactLocation {
  if (location.uri !== undefined || location.index === undefined) return location;
  const artifact = SarifArtifact.safeParse(run.artifacts?.[location.index]);
  return artifact.success && artifact.data.location ? artifact.data.location : location;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const DRIVE = /^[A-Za-z]:[\\/]/;

function fileOf(location: SarifArtifactLocation, run: SarifRun): Pick<ResultLocation, 'artifact' | 'root' | 'noFile'> {
  const uri = location.uri;
  if (uri === undefined || uri === '') return { noFile: 'no file' };
  if (DRIVE.test(uri)) return pathOf({ kind: 'absolute', path: uri });
  if (!SCHEME.test(uri)) {
    const prefix = prefixOf(location.uriBaseId, run, 0);
    const made = pathOf({ kind: 'relative', path: prefix + uri });
    return location.uriBaseId === undefined ? made : { ...made, root: { how: 'base-id', name: location.uriBaseId } };
  }
  if (!/^file:/i.test(uri)) return { noFile: 'a URI that is not a file' };
  const base = relativeToBase(uri, run);
  if (base) return { ...pathOf({ kind: 'relative', path: base.path }), root: { how: 'base-id', name: base.name } };
  const workingDirectory = relativeToWorkingDirectory(uri, run);
  if (workingDirectory)
    return {
      ...pathOf({ kind: 'relative', path: workingDirectory.path }),
      root: { how: 'working-directory', name: workingDirectory.name },
    };
  const absolute = filePath(uri);
  return absolute === undefined ? { noFile: 'a file on another host' } : pathOf({ kind: 'absolute', path: absolute });
}

/** The path decoded, with forward slashes; no file when it holds a bad escape or a control character. */
function pathOf(path: ArtifactPath): Pick<ResultLocation, 'artifact' | 'noFile'> {
  const text = decoded(path.path);
  if (text === undefined) return { noFile: 'a malformed escape in its URI' };
  if (CONTROL.test(text)) return { noFile: 'a control character in its path' };
  if (text === '' || text.endsWith('/')) return { noFile: 'a folder' };
  return {
    artifact: { kind: path.kind, path: path.kind === 'absolute' ? text.replace(/^\/([A-Za-z]:\/)/, '$1') : text },
  };
}

function baseOf(run: SarifRun, id: string): { uri?: string; uriBaseId?: string } | undefined {
  const raw = run.originalUriBaseIds?.[id];
  const base = isRecord(raw) ? SarifBaseId.safeParse(raw) : undefined;
  return base?.success ? base.data : undefined;
}

/** The relative part a chain of relative base URIs adds ("src/" under SRCROOT); '' at an absolute root. */
function prefixOf(baseId: string | undefined, run: SarifRun, depth: number): string {
  if (baseId === undefined || depth > MAX_BASE_DEPTH) return '';
  const base = baseOf(run, baseId);
  if (base?.uri === undefined || SCHEME.test(base.uri)) return '';
  const uri = base.uri.endsWith('/') ? base.uri : `${base.uri}/`;
  return prefixOf(base.uriBaseId, run, depth + 1) + uri;
}

/** An absolute file: URI under one of the run's file: roots, relative to that root, and the root's name. */
function relativeToBase(uri: string, run: SarifRun): { path: string; name: string } | undefined {
  for (const name of Object.keys(run.originalUriBaseIds ?? {})) {
    const base = baseOf(run, name);
    if (base?.uri === undefined || !/^file:/i.test(base.uri)) continue;
    const path = under(uri, base.uri);
    if (path !== undefined) return { path, name };
  }
  return undefined;
}

/** An absolute file: URI under a folder the tool ran in, relative to it. */
function relativeToWorkingDirectory(uri: string, run: SarifRun): { path: string; name: string } | undefined {
  for (const invocation of run.invocations ?? []) {
    const folder = invocation.workingDirectory?.uri;
    if (folder === undefined || !/^file:/i.test(folder)) continue;
    const path = under(uri, folder);
    if (path !== undefined) return { path, name: folder };
  }
  return undefined;
}

/** `uri` past `root` (a folder, with or without its slash), when it is under it. */
function under(uri: string, root: string): string | undefined {
  const folder = root.endsWith('/') ? root : `${root}/`;
  return uri.length > folder.length && uri.startsWith(folder) ? uri.slice(folder.length) : undefined;
}

/** `file:///home/u/a.ts` → `/home/u/a.ts`; `file:///C:/x` → `/C:/x`; a remote host is not a file here. */
function filePath(uri: string): string | undefined {
  const rest = uri.replace(/^file:/i, '');
  if (!rest.startsWith('//')) return rest;
  const slash = rest.indexOf('/', 2);
  const host = rest.slice(2, slash < 0 ? rest.length : slash);
  if (slash < 0 || (host !== '' && host.toLowerCase() !== 'localhost')) return undefined;
  return rest.slice(slash);
}

function decoded(uri: string): string | undefined {
  try {
    return decodeURIComponent(withoutQuery(uri))
      .replace(/\\/g, '/')
      .replace(/^(?:\.\/)+/, '');
  } catch {
    return undefined; // a malformed escape (`%E0%A4%A`)
  }
}

/** The URI without its query and fragment. Not a regular expression: `[?#].*$` backtracks over a long one. */
function withoutQuery(uri: string): string {
  const question = uri.indexOf('?');
  const hash = uri.indexOf('#');
  const end = Math.min(question < 0 ? uri.length : question, hash < 0 ? uri.length : hash);
  return uri.slice(0, end);
}
