// The step between parsing and rendering: every reference the parse found gets its answer (async,
// each path looked up once), and the answers are tallied into the report the assistant receives.

import type { BrokenReference, ReferenceReport } from '../../../shared/protocol';
import type { FileReference } from '../../../shared/links';
import type { Resolution } from './referenceResolver';

/** Async, so the file system is never touched on the extension host's thread. */
export interface Resolver {
  resolve(ref: FileReference): Promise<Resolution> | Resolution;
  /** The answer without waiting, if it is already known. */
  resolveSync?(ref: FileReference): Resolution | undefined;
  /** `ms` went on other work since the last lookups (a review rendered in parts): a time budget for them does not count it. */
  idle?(ms: number): void;
}

/** Lookups in flight at once: enough to hide disk latency, few enough not to flood libuv's 4 threads. */
const RESOLVE_CONCURRENCY = 16;

/** The assistant hears about this many broken references at most; the counts stay exact. */
export const MAX_BROKEN_LISTED = 200;

/** Filled in by phase 1 (parse), answered in between, read by phase 2 (render). */
export interface ReferenceMeta {
  kind: 'reference';
  raw: string;
  reference: FileReference;
  /** 1-based line in the whole review. */
  line: number;
  /** Only for link destinations, which markdown-it percent-encoded; otherwise `raw` is as written. */
  asWritten?: () => string;
  /** Inline code without a line is a link only if the file exists; otherwise it stays plain code. */
  onlyIfResolved: boolean;
  resolution?: Resolution;
}

export interface ResolveOptions {
  /** No lookup starts once it is aborted; the caller checks it after. */
  readonly signal?: AbortSignal;
  /** Told how many references have their answer, after each path's. */
  readonly onResolved?: (resolved: number) => void;
}

/** The first reference to each path is awaited; the rest are answered from what that lookup found. */
export async function resolveAll(
  references: ReferenceMeta[],
  resolver: Resolver,
  options: ResolveOptions = {},
): Promise<void> {
  const byPath = new Map<string, ReferenceMeta[]>();
  for (const meta of references) {
    const same = byPath.get(meta.reference.path);
    if (same) same.push(meta);
    else byPath.set(meta.reference.path, [meta]);
  }
  const groups = [...byPath.values()];
  let next = 0;
  let resolved = 0;
  const worker = async () => {
    while (next < groups.length && !options.signal?.aborted) {
      const group = groups[next++];
      for (const meta of group)
        meta.resolution = resolver.resolveSync?.(meta.reference) ?? (await resolver.resolve(meta.reference));
      resolved += group.length;
      options.onResolved?.(resolved);
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESOLVE_CONCURRENCY, groups.length) }, worker));
}

export class ReferenceTally {
  private total = 0;
  private resolved = 0;
  private unchecked = 0;
  private readonly broken: BrokenReference[] = [];

  count({ raw, asWritten, line }: ReferenceMeta, resolution: Resolution): void {
    this.total++;
    if (resolution.status === 'resolved') {
      this.resolved++;
    } else if (resolution.status === 'unchecked') {
      this.unchecked++;
    } else if (this.broken.length < MAX_BROKEN_LISTED) {
      this.broken.push({ reference: asWritten ? asWritten() : raw, line, reason: resolution.reason });
    }
  }

  report(): ReferenceReport {
    return { total: this.total, resolved: this.resolved, unchecked: this.unchecked, broken: this.broken };
  }
}
