// Finds the real file behind a review's file reference, so the panel can mark broken links and the
// assistant can be told which references are wrong. Async, within one render's I/O budget.

import * as path from 'path';
import type { FileReference } from '../../../shared/links';
import { candidatePaths, type PathFlavour } from '../../../shared/pathSafety';
import { realpathOrAsync } from '../../../shared/realpath';
import { defaultBudget, FileFactsLookup, LineCountCache, type FileFacts, type RealRoots } from './fileFacts';

export type Resolution =
  /** lineCount is 0 for a folder, and Infinity for a file too large to count (its lines are taken on trust). */
  | { status: 'resolved'; absolutePath: string; lineCount: number; clamped?: boolean }
  /** `outside`: the path is outside the roots and was not looked up (the location opener may ask the user). */
  | { status: 'broken'; reason: string; outside?: true }
  /** The render's I/O budget ran out: neither broken nor resolved, and never reported as broken. */
  | { status: 'unchecked'; reason: string };

/** How many search folders a "no file" message names before summarising the rest. */
const ROOTS_NAMED = 3;
/** The same words whether or not such a file exists: the answer must not reveal the rest of the disk. */
export const OUTSIDE_ROOTS = 'outside the workspace, not checked';
const UNCHECKED = 'not checked: this review names more files than one render looks at';

interface Located {
  absolutePath: string;
  facts: FileFacts;
}

export interface ResolverOptions {
  /** Shared across renders so line counts are not recounted; a private one if omitted. */
  cache?: LineCountCache;
  /** A fresh default budget if omitted. */
  lookup?: FileFactsLookup;
  /** `path.win32` in tests that emulate Windows. */
  flavour?: PathFlavour;
  /** Look up paths outside the roots too: only once the user has agreed to open one. */
  outsideRoots?: 'refuse' | 'lookUp';
}

export class ReferenceResolver {
  private readonly roots: string[];
  /** Made at the first lookup (see below). */
  private lookupMade: FileFactsLookup | undefined;
  /** The roots as they really are, resolved once per render at the first lookup. */
  private realRootsMade: Promise<RealRoots> | undefined;
  private readonly flavour: PathFlavour;
  private readonly lookUpOutside: boolean;
  private readonly locatedByReference = new Map<string, Promise<Located | string | undefined>>();
  /** The same answers once they have arrived, so the other references to a file need no await. */
  private readonly settled = new Map<string, Located | string | undefined>();

  /** roots in search order: the assistant's cwd first (only when inside a workspace folder), then the workspace folders. */
  constructor(
    roots: readonly string[],
    private readonly options: ResolverOptions = {},
  ) {
    this.flavour = options.flavour ?? path;
    this.lookUpOutside = options.outsideRoots === 'lookUp';
    this.roots = [...new Set(roots.filter((root) => root !== '').map((root) => this.flavour.resolve(root)))];
  }

  /**
   * The budget's clock starts at the first lookup, not when the resolver is made: a render makes it
   * before parsing, and the parse of a large review alone can outlast the time the budget gives the
   * disk, which would leave every reference of such a review unchecked.
   */
  private get lookup(): FileFactsLookup {
    return (this.lookupMade ??=
      this.options.lookup ?? new FileFactsLookup(this.options.cache ?? new LineCountCache(), defaultBudget()));
  }

  async resolve(ref: FileReference): Promise<Resolution> {
    return this.answer(ref, await this.locate(ref.path));
  }

  /** `ms` went on other work since the last lookups: the render's time budget for the disk does not count it. */
  idle(ms: number): void {
    this.lookupMade?.idle(ms);
  }

  /** An answer without waiting, once a reference to the same path has been resolved; else undefined. */
  resolveSync(ref: FileReference): Resolution | undefined {
    return this.settled.has(ref.path) ? this.answer(ref, this.settled.get(ref.path)) : undefined;
  }

  private answer(ref: FileReference, located: Located | string | undefined): Resolution {
    if (typeof located === 'string') {
      return {
        status: 'broken',
        reason: `${ref.path} is ${located}`,
        ...(located === OUTSIDE_ROOTS ? { outside: true as const } : {}),
      };
    }
    if (located === undefined) return { status: 'broken', reason: this.describeMissing(ref.path) };
    const { absolutePath, facts } = located;
    switch (facts.kind) {
      case 'outside':
        return { status: 'broken', reason: `${ref.path} is ${OUTSIDE_ROOTS}`, outside: true };
      case 'unchecked':
        return { status: 'unchecked', reason: UNCHECKED };
      case 'missing':
        return { status: 'broken', reason: this.describeMissing(ref.path) };
      case 'unreadable':
        return { status: 'broken', reason: `cannot read ${ref.path}: ${facts.why}` };
      case 'folder':
        return ref.line === undefined
          ? { status: 'resolved', absolutePath, lineCount: 0 }
          : { status: 'broken', reason: `${ref.path} is a folder, not a file` };
      case 'file':
        return checkLines(ref, absolutePath, facts.lineCount);
    }
  }

  /** A string is why the path was not looked up at all. */
  private locate(referencePath: string): Promise<Located | string | undefined> {
    let located = this.locatedByReference.get(referencePath);
    if (located === undefined) {
      located = this.search(referencePath).then((found) => {
        this.settled.set(referencePath, found);
        return found;
      });
      this.locatedByReference.set(referencePath, located);
    }
    return located;
  }

  /**
   * Where a lookup may look, judged on real paths: undefined (anywhere) once the user has agreed.
   * Real paths are this platform's; a test that emulates another platform's paths judges spelling only.
   */
  private realRoots(): Promise<RealRoots> {
    if (this.lookUpOutside || this.flavour.sep !== path.sep) return Promise.resolve(undefined);
    return (this.realRootsMade ??= Promise.all(this.roots.map(realpathOrAsync)));
  }

  private async search(referencePath: string): Promise<Located | string | undefined> {
    const where = candidatePaths(referencePath, this.roots, this.flavour);
    if (where.kind === 'refused') return `refused: ${where.reason}`;
    // With no roots at all, "there is nowhere to look" is the more useful answer, and reveals nothing.
    if (where.kind === 'outside' && !this.lookUpOutside) return this.roots.length === 0 ? undefined : OUTSIDE_ROOTS;
    const within = await this.realRoots();
    let unreadable: Located | undefined;
    let outside = false;
    for (const absolutePath of where.paths) {
      const facts = await this.lookup.factsAbout(absolutePath, within);
      if (facts.kind === 'file' || facts.kind === 'folder') return { absolutePath, facts };
      // Past the budget the later roots are not tried, so "missing" from the earlier ones is not the answer.
      if (facts.kind === 'unchecked') return { absolutePath, facts };
      // A root we may not read does not end the search; its error is the answer only if no root has the file.
      if (facts.kind === 'unreadable') unreadable ??= { absolutePath, facts };
      // Through a link that leads out of the roots: the same words as any path outside, exists or not.
      if (facts.kind === 'outside') outside = true;
    }
    return unreadable ?? (outside ? OUTSIDE_ROOTS : undefined);
  }

  private describeMissing(referencePath: string): string {
    if (this.roots.length === 0)
      return `no file ${referencePath}: there is no working folder or workspace folder to look in`;
    if (this.flavour.isAbsolute(referencePath)) return `no file ${referencePath}`;
    const named = this.roots.slice(0, ROOTS_NAMED);
    const others = this.roots.length - named.length;
    const places = others > 0 ? [...named, `${others} other folder${others === 1 ? '' : 's'}`] : named;
    const list = places.length === 1 ? places[0] : `${places.slice(0, -1).join(', ')} or ${places[places.length - 1]}`;
    return `no file ${referencePath} in ${list}`;
  }
}

/**
 * For the location opener: one reference, resolved against the roots with a budget of its own.
 * A path outside the roots is "broken" with OUTSIDE_ROOTS unless outsideRoots is 'lookUp'.
 */
export function resolveOne(
  roots: readonly string[],
  ref: FileReference,
  options: { cache?: LineCountCache; outsideRoots?: 'refuse' | 'lookUp' } = {},
): Promise<Resolution> {
  return new ReferenceResolver(roots, options).resolve(ref);
}

function checkLines(ref: FileReference, absolutePath: string, lineCount: number): Resolution {
  // An empty file still opens at line 1, so line 1 is never past the end.
  if (ref.line !== undefined && ref.line > Math.max(lineCount, 1)) {
    const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
    return { status: 'broken', reason: `line ${ref.line} is past the end of ${ref.path} (${lines})` };
  }
  // A range that starts in the file but runs off its end still shows the right place.
  if (ref.endLine !== undefined && ref.endLine > Math.max(lineCount, 1)) {
    return { status: 'resolved', absolutePath, lineCount, clamped: true };
  }
  return { status: 'resolved', absolutePath, lineCount };
}
