// Renders reviews for the panel and for present-review's reference report, resolving relative
// references against the assistant's cwd first (when it lies in a workspace folder) and then the
// workspace folders. One per window: it keeps the last few full renders (the report, the panel and
// the findings share one pass) and the line counts of files for single lookups (a click). The
// render itself runs in its engine, which it owns: the window's is a pool of worker threads.

import * as path from 'path';
import { worktreeHolding } from '../../../shared/gitWorktrees';
import { Disposable } from '../../../shared/lifecycle';
import type { FileReference } from '../../../shared/links';
import { silentLogger, type Logger } from '../../../shared/logger';
import { isWithin, refusedPathReason } from '../../../shared/pathSafety';
import { realpathOr } from '../../../shared/realpath';
import { LineCountCache } from './fileFacts';
import type { RenderedReview, RenderOptions } from './markdownRenderer';
import { InThreadRenderEngine, type RenderEngine, type RenderJob, type RenderOutcome } from './renderJob';
import { resolveOne, type Resolution } from './referenceResolver';

export interface RenderableReview {
  readonly revision: number;
  readonly markdown: string;
  readonly cwd?: string;
}

/**
 * Renders kept: one for each of two assistants' reviews (the panel and the findings share it), and
 * one on its way in. A large review's render holds tens of megabytes, so no more are kept.
 */
const MAX_KEPT_RENDERS = 3;
/** How long a cwd's place is kept: a `git worktree add` or `remove`, or a changed link, shows after this. */
const PLACE_KEPT_MS = 2000;
/** A window tells its log of this many repositories or records not believed, at most. */
const MAX_DISTRUST_TOLD = 100;

export interface ReviewRendererOptions {
  /** Runs the renders, and is released with the renderer: this thread's, sharing the line counts, unless given (the window passes its worker pool). */
  readonly engine?: RenderEngine;
  /** Files open with unsaved changes, as [path, text]: a suggestion applies to that text, so its diff is shown against it. */
  readonly unsavedDocuments?: () => ReadonlyArray<readonly [string, string]>;
  /** Told, once each, why a repository or a worktree record above a cwd was not believed. */
  readonly log?: Logger;
  /**
   * Folders shipped inside the extension (the sample review's files): a review whose cwd lies in
   * one resolves its references there, as in a workspace folder. Only the extension names these.
   */
  readonly bundledFolders?: readonly string[];
}

/** A finding's id and the 0-based line of the review its block starts on. */
export interface FindingPlace {
  readonly id: string;
  readonly line: number;
}

export class ReviewRenderer extends Disposable {
  /** The last few full renders, newest first: one per assistant's review that is being shown or tracked. */
  private recent: Array<{ review: RenderableReview; rendered: Promise<RenderedReview> }> = [];
  /**
   * Where each review's findings are, once known (a whole render, or an append's part after its
   * base's), so that a part added to it numbers the texts it repeats as the whole review does.
   */
  private readonly findingPlaces = new WeakMap<RenderableReview, Promise<readonly FindingPlace[]>>();
  /** The last answer of placeOf. */
  private placeSeen: { key: string; at: number; place: Place } | undefined;
  /** Lives across renders: re-rendering a review re-stats its files but does not recount their lines. */
  readonly lineCounts = new LineCountCache();
  private readonly distrustTold = new Set<string>();
  private readonly engine: RenderEngine;
  private readonly unsavedDocuments: () => ReadonlyArray<readonly [string, string]>;
  private readonly log: Logger;
  private readonly bundledFolders: readonly string[];

  constructor(
    private readonly workspaceFolders: () => readonly string[],
    options: ReviewRendererOptions = {},
  ) {
    super();
    this.engine = this.register(options.engine ?? new InThreadRenderEngine(this.lineCounts));
    this.unsavedDocuments = options.unsavedDocuments ?? (() => []);
    this.log = options.log ?? silentLogger;
    this.bundledFolders = options.bundledFolders ?? [];
  }

  render(review: RenderableReview): Promise<RenderedReview> {
    const rendered =
      this.recent.find((candidate) => sameReview(candidate.review, review))?.rendered ??
      this.renderFragment(review.markdown, review.cwd);
    this.keep(review, rendered);
    return rendered;
  }

  /**
   * A render made before its review existed (a large present-review is rendered before it is
   * shown), kept as that review's render, so that the panel and the findings do not render it again.
   * It must be of exactly `review.markdown` against `review.cwd`.
   */
  adopt(review: RenderableReview, rendered: Promise<RenderedReview>): void {
    this.keep(review, rendered);
  }

  /** Records where `review`'s findings are, when they are known without a whole render (an append's). */
  noteFindingPlaces(review: RenderableReview, places: Promise<readonly FindingPlace[]>): void {
    places.catch(() => undefined);
    this.findingPlaces.set(review, places);
  }

  /**
   * The ids of `review`'s findings above 0-based `line`: the ids a part added there must number
   * its repeats after. With `render` false, undefined when they are not known already.
   */
  async findingIdsAbove(
    review: RenderableReview,
    line: number,
    { render = true } = {},
  ): Promise<ReadonlySet<string> | undefined> {
    const places = await this.placesOf(review, render);
    return places && new Set(places.filter((place) => place.line < line).map((place) => place.id));
  }

  /** Where `review`'s findings are: known, or from a whole render when `render`. */
  async placesOf(review: RenderableReview, render = true): Promise<readonly FindingPlace[] | undefined> {
    const known = await this.findingPlaces.get(review)?.catch(() => undefined);
    if (known || !render) return known;
    return placesOf((await this.render(review)).findings);
  }

  /** Renders markdown that is not (or not yet) a whole review, e.g. the part an append added. */
  renderFragment(
    markdown: string,
    cwd: string | undefined,
    options: RenderOptions & Pick<RenderJob, 'withSections' | 'checkBudget'> = {},
  ): Promise<RenderOutcome> {
    const { lineOffset, takenFindingIds, withSections, checkBudget, signal, onProgress, onSlice } = options;
    // Only a review with a suggestion needs the editors' unsaved text.
    const unsaved = markdown.includes('```suggestion') ? this.unsavedDocuments() : undefined;
    const job = {
      markdown,
      roots: this.roots(cwd),
      lineOffset,
      takenFindingIds: takenFindingIds && [...takenFindingIds],
      withSections,
      checkBudget,
      unsaved,
    };
    return this.engine.render(job, { signal, onProgress, onSlice });
  }

  /**
   * Keeps only the renders of `reviews` (the ones on screen or tracked): a replaced review's render,
   * which can hold tens of megabytes, is let go at once, not after the next few reviews.
   */
  keepOnly(reviews: readonly RenderableReview[]): void {
    this.recent = this.recent.filter((entry) => reviews.some((review) => sameReview(review, entry.review)));
  }

  private keep(review: RenderableReview, rendered: Promise<RenderedReview>): void {
    if (!this.findingPlaces.has(review))
      this.noteFindingPlaces(
        review,
        rendered.then(({ findings }) => placesOf(findings)),
      );
    let entry = this.recent.find((candidate) => candidate.rendered === rendered);
    if (!entry) {
      const made = { review, rendered };
      entry = made;
      // A failed render is not kept: the next call tries again.
      rendered.catch(() => (this.recent = this.recent.filter((candidate) => candidate !== made)));
    }
    this.recent = [entry, ...this.recent.filter((candidate) => candidate !== entry)].slice(0, MAX_KEPT_RENDERS);
  }

  /** One reference, e.g. for a click or open-location; shares this window's line counts. */
  resolve(
    ref: FileReference,
    cwd: string | undefined,
    outsideRoots: 'refuse' | 'lookUp' = 'refuse',
  ): Promise<Resolution> {
    return resolveOne(this.roots(cwd), ref, { cache: this.lineCounts, outsideRoots });
  }

  /** "the worktree <folder>" when `cwd` lies in a git worktree of a workspace folder's repository, outside the folders themselves. */
  worktreeOf(cwd: string | undefined): string | undefined {
    const worktree = this.placeOf(cwd).worktree;
    return worktree && `the worktree ${worktree}`;
  }

  /**
   * Where references are looked for, in order. The request's cwd comes from the assistant and is
   * not checked by anyone else, so it only says where relative references start, and only when it
   * lies inside a workspace folder, or inside a git worktree that a workspace folder's repository
   * itself lists (an assistant run in `git worktree add`'s checkout): it never widens what counts
   * as inside beyond that (`cwd: "/"` would otherwise open any file without asking, and make the
   * reference report say what exists). Inside is judged on real paths: `ws/link-to-root` is not.
   */
  roots(cwd: string | undefined): string[] {
    const folders = this.workspaceFolders();
    const { start, inside, worktree } = this.placeOf(cwd);
    if (start === undefined || (!inside && !worktree)) return [...folders];
    return [
      start,
      ...(worktree && worktree !== start ? [worktree] : []),
      ...folders.filter((folder) => folder !== start),
    ];
  }

  private placeOf(cwd: string | undefined): Place {
    const start = cwd !== undefined && path.isAbsolute(cwd) ? path.resolve(cwd) : undefined;
    if (start === undefined) return {};
    const folders = this.workspaceFolders();
    // Read from the disk on this thread: kept briefly, since every render, click and panel update
    // of the same assistant's review asks again.
    const key = [start, ...folders].join('\0');
    if (this.placeSeen?.key !== key || Date.now() - this.placeSeen.at > PLACE_KEPT_MS) {
      const place = placeOnDisk(start, { folders, bundled: this.bundledFolders }, (why) => this.tellDistrust(why));
      this.placeSeen = { key, at: Date.now(), place };
    }
    return this.placeSeen.place;
  }

  private tellDistrust(why: string): void {
    if (this.distrustTold.has(why) || this.distrustTold.size >= MAX_DISTRUST_TOLD) return;
    this.distrustTold.add(why);
    this.log.warn(
      `${why}. A repository counts only when you own it and no one else may write to it, as git's safe.directory decides.`,
    );
  }
}

interface Place {
  readonly start?: string;
  readonly inside?: boolean;
  readonly worktree?: string;
}

/**
 * Where `start` really is: inside a workspace folder or a bundled one (kept as spelled when it is
 * so spelled too, else as it really is), in a worktree a workspace folder's repository lists, or neither.
 */
function placeOnDisk(
  start: string,
  { folders, bundled }: { readonly folders: readonly string[]; readonly bundled: readonly string[] },
  onDistrust: (why: string) => void,
): Place {
  // A share or a device path is not resolved at all: that alone would reach the host.
  if (refusedPathReason(start) !== undefined) return { start };
  const real = realpathOr(start);
  const realFolders = [...folders, ...bundled].map(realpathOr);
  if (realFolders.some((folder) => isWithin(folder, real, path))) {
    const spelledInside = [...folders, ...bundled].some((folder) => isWithin(folder, start, path));
    return { start: spelledInside ? start : real, inside: true };
  }
  const worktree = worktreeHolding(real, folders, { onDistrust })?.worktree;
  return worktree === undefined ? { start } : { start: real, worktree };
}

function placesOf(findings: ReadonlyArray<{ readonly id: string; readonly reviewLine: number }>): FindingPlace[] {
  return findings.map(({ id, reviewLine }) => ({ id, line: reviewLine - 1 }));
}

/**
 * Each assistant's review counts its own revisions, so a revision alone does not say which review
 * it is. The store hands out the same string for the same review, so this is mostly a pointer test.
 */
function sameReview(a: RenderableReview, b: RenderableReview): boolean {
  return a === b || (a.revision === b.revision && a.cwd === b.cwd && a.markdown === b.markdown);
}
