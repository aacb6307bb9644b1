// Where a SARIF result points, as a path and lines a review can reference. A relative URI stays
// relative: its uriBaseId names the root on the machine that wrote the log (run.originalUriBaseIds),
// and the reader's workspace is another checkout of the same code. An absolute file: URI under one
// of those roots is made relative to it for the same reason; any other stays absolute, and the
// renderer reports it broken when it is not in the workspace.

import { SarifArtifact, type SarifArtifactLocation, type SarifLocation, type SarifRun } from './sarifShape';

export interface ResultPlace {
  /** Forward slashes; relative to the workspace, or absolute. */
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
}

/** How deep uriBaseIds may refer to one another before the chain is taken for a loop. */
const MAX_BASE_DEPTH = 8;

/** The first location with a file; undefined for a result with none (only logical locations, say). */
export function placeOf(locations: readonly SarifLocation[] | undefined, run: SarifRun): ResultPlace | undefined {
  for (const location of locations ?? []) {
    const physical = location.physicalLocation;
    if (physical?.artifactLocation === undefined) continue;
    const file = fileOf(physical.artifactLocation, run);
    if (file === undefined) continue;
    const line = physical.region?.startLine ?? 1;
    return { file, line, endLine: Math.max(line, physical.region?.endLine ?? line) };
  }
  return undefined;
}

/** What a result names when it has no file: its logical locations ("com.example.Foo.bar"). */
export function logicalNameOf(locations: readonly SarifLocation[] | undefined): string | undefined {
  for (const location of locations ?? []) {
    for (const logical of location.logicalLocations ?? []) {
      const name = logical.fullyQualifiedName ?? logical.name;
      if (name !== undefined && name.trim() !== '') return name;
    }
  }
  return undefined;
}

function fileOf(artifactLocation: SarifArtifactLocation, run: SarifRun): string | undefined {
  let location = artifactLocation;
  if (location.uri === undefined && location.index !== undefined) {
    const artifact = SarifArtifact.safeParse(run.artifacts?.[location.index]);
    if (!artifact.success || artifact.data.location === undefined) return undefined;
    location = artifact.data.location;
  }
  if (location.uri === undefined || location.uri === '') return undefined;
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(location.uri) !== null && !/^[A-Za-z]:[\\/]/.test(location.uri);
  if (!absolute) return decoded(prefixOf(location.uriBaseId, run, 0) + location.uri);
  if (!/^file:/i.test(location.uri)) return undefined;
  return relativeToBase(location.uri, run) ?? filePath(location.uri);
}

/** The relative part a chain of relative base URIs adds ("src/" under SRCROOT); '' at an absolute root. */
function prefixOf(baseId: string | undefined, run: SarifRun, depth: number): string {
  if (baseId === undefined || depth > MAX_BASE_DEPTH) return '';
  const base = run.originalUriBaseIds?.[baseId];
  if (base?.uri === undefined || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(base.uri)) return '';
  const uri = base.uri.endsWith('/') ? base.uri : `${base.uri}/`;
  return prefixOf(base.uriBaseId, run, depth + 1) + uri;
}

/** An absolute file: URI under one of the run's file: roots, as a path relative to that root. */
function relativeToBase(uri: string, run: SarifRun): string | undefined {
  for (const base of Object.values(run.originalUriBaseIds ?? {})) {
    if (base.uri === undefined || !/^file:/i.test(base.uri)) continue;
    const root = base.uri.endsWith('/') ? base.uri : `${base.uri}/`;
    if (uri.length > root.length && uri.startsWith(root)) return decoded(uri.slice(root.length));
  }
  return undefined;
}

/** `file:///home/u/a.ts` → `/home/u/a.ts`; `file:///C:/x` → `C:/x`; a remote host is not a file here. */
function filePath(uri: string): string | undefined {
  const rest = uri.replace(/^file:/i, '');
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const host = rest.slice(2, slash < 0 ? rest.length : slash);
    if (slash < 0 || (host !== '' && host.toLowerCase() !== 'localhost')) return undefined;
    path = rest.slice(slash);
  }
  const file = decoded(path);
  return file === undefined ? undefined : file.replace(/^\/([A-Za-z]:\/)/, '$1');
}

function decoded(uri: string): string | undefined {
  try {
    return decodeURIComponent(withoutQuery(uri)).replace(/\\/g, '/').replace(/^\.\//, '');
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
